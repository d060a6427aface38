/** stacks router (issue #8, Graphite-style stacked branches): create, get, list, reorder, delete. */
import { router } from "../trpc";

export const stacksRouter = router({});
