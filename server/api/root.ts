/** The app router: every tRPC router. Each procedure needs a row in server/api/access.ts. */
import { router, createCallerFactory } from "./trpc";
import { usersRouter } from "./routers/users";
import { reposRouter } from "./routers/repos";

export const appRouter = router({
  users: usersRouter,
  repos: reposRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
