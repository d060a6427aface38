/** The app router: every tRPC router. Each procedure needs a row in server/api/access.ts. */
import { router, createCallerFactory } from "./trpc";
import { usersRouter } from "./routers/users";
import { reposRouter } from "./routers/repos";
import { issuesRouter } from "./routers/issues";
import { projectsRouter, cyclesRouter } from "./routers/planning";
import { pullsRouter } from "./routers/pulls";
import { stacksRouter } from "./routers/stacks";
import { aiRouter } from "./routers/ai";
import { repoAiKeysRouter } from "./routers/repo-ai-keys";
import { agentRouter } from "./routers/agent";
import { statusesRouter } from "./routers/statuses";
import { branchProtectionRouter } from "./routers/branch-protection";
import { webhooksRouter } from "./routers/webhooks";
import { orgsRouter } from "./routers/orgs";
import { teamsRouter } from "./routers/teams";
import { notificationsRouter } from "./routers/notifications";
import { sshKeysRouter } from "./routers/ssh-keys";

export const appRouter = router({
  users: usersRouter,
  repos: reposRouter,
  issues: issuesRouter,
  projects: projectsRouter,
  cycles: cyclesRouter,
  pulls: pullsRouter,
  stacks: stacksRouter,
  ai: aiRouter,
  repoAiKeys: repoAiKeysRouter,
  agent: agentRouter,
  statuses: statusesRouter,
  branchProtection: branchProtectionRouter,
  webhooks: webhooksRouter,
  orgs: orgsRouter,
  teams: teamsRouter,
  notifications: notificationsRouter,
  sshKeys: sshKeysRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
