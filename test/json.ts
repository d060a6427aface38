/**
 * A parsed JSON value whose shape the test helper cannot know (a request body the fake AI provider
 * received, a tRPC result an end-to-end test reads): tests read its fields as they expect them.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON of any shape, read by tests field by field
export type JsonRecord = Record<string, any>;
