/** The issue tracker's domain (issue #3, docs/issues.md): one function per procedure. */
export * from "./issues";
export * from "./relations";
export * from "./board";
export * from "./board-page";
export * from "./activity";
export * from "./comments";
export * from "./labels";
export * from "./templates";
export * from "./views";
export * from "./locate";
export type { IssueView, LabelView, UserRef } from "./core";
