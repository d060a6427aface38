/** Error shorthands the issue services use beyond server/errors.ts. */
import { AppError } from "@/server/errors";

export const PrecondFailed = (message: string) => new AppError("PRECONDITION_FAILED", message);
