/** The app router: every tRPC router. Each procedure needs a row in server/api/access.ts. */
import { router, createCallerFactory } from "./trpc";
import { usersRouter } from "./routers/users";
import { reposRouter } from "./routers/repos";
import { issuesRouter } from "./routers/issues";
import { projectsRouter, cyclesRouter } from "./routers/planning";
import { pullsRouter } from "./routers/pulls";
import { stacksRouter } from "./routers/stacks";
import { aiRouter } from "./routers/ai";

export const appRouter = router({
  users: usersRouter,
  repos: reposRouter,
  issues: issuesRouter,
  projects: projectsRouter,
  cycles: cyclesRouter,
  pulls: pullsRouter,
  stacks: stacksRouter,
  ai: aiRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
