/** Fixtures for the issue tracker tests: a repository with an owner, a writer, a reader and a stranger. */
import { TRPCError } from "@trpc/server";
import type { Profile } from "@/server/services/users/profile";
import { actorOf, callerFor, makeUser } from "../helpers";

export type Caller = Awaited<ReturnType<typeof callerFor>>;

export interface IssueWorld {
  owner: Profile;
  writer: Profile;
  reader: Profile;
  stranger: Profile;
  repoId: string;
  as: { owner: Caller; writer: Caller; reader: Caller; stranger: Caller; anon: Caller };
}

/** A repository (private unless `isPrivate: false`) with a write and a read collaborator. */
export async function issueWorld(opts: { isPrivate?: boolean } = {}): Promise<IssueWorld> {
  const [owner, writer, reader, stranger] = await Promise.all([makeUser("own"), makeUser("wri"), makeUser("rea"), makeUser("str")]);
  const ownerCaller = await callerFor(actorOf(owner));
  const repo = await ownerCaller.repos.create({ name: `r${Math.random().toString(36).slice(2, 9)}`, isPrivate: opts.isPrivate ?? true });
  await ownerCaller.repos.addCollaborator({ repoId: repo.id, username: writer.username, role: "write" });
  await ownerCaller.repos.addCollaborator({ repoId: repo.id, username: reader.username, role: "read" });
  return {
    owner,
    writer,
    reader,
    stranger,
    repoId: repo.id,
    as: {
      owner: ownerCaller,
      writer: await callerFor(actorOf(writer)),
      reader: await callerFor(actorOf(reader)),
      stranger: await callerFor(actorOf(stranger)),
      anon: await callerFor(null),
    },
  };
}

/** The TRPCError code of a rejected call ("OK" if it succeeded). */
export async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "OK";
  } catch (e) {
    if (e instanceof TRPCError) return e.code;
    throw e;
  }
}

/** The message of a rejected call. */
export async function messageOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "";
  } catch (e) {
    return (e as Error).message;
  }
}
