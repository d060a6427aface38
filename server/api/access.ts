/**
 * The access table: every tRPC procedure's tier and scope, in one place (docs/architecture.md
 * "One access table").
 * The procedure tiers in server/api/trpc.ts enforce it; test/integration/access-harness.test.ts
 * walks the app router and fails if a procedure has no row or its builder disagrees with it.
 *
 *   public           anyone; an actor, if any, is attached
 *   user  (scope)    a signed-in actor whose token has `scope`
 *   repo  (level)    the repository named in the input, at permission `level`; the scope follows
 *                    the level (read → repo:read, write → repo:write, admin → repo:admin);
 *                    anonymous callers may read public repositories; `scope` overrides the
 *                    token scope the level implies (a read-level mutation that still needs
 *                    repo:write, e.g. pulls.addComment: any reader may comment, but only with a
 *                    token allowed to write)
 */
import type { Scope } from "@/server/auth/scopes";
import type { RepoRole } from "@/server/services/repos/access";

export type AccessRule = { tier: "public" } | { tier: "user"; scope: Scope } | { tier: "repo"; level: RepoRole; scope?: Scope };

export const ACCESS: Record<string, AccessRule> = {
  // users
  "users.signUp": { tier: "public" }, // FORBIDDEN under OIDC_ONLY=1
  // linked OpenID Connect identities (docs/security.md "Single sign-on (OpenID Connect)"); sessions only
  "users.externalIdentities.list": { tier: "user", scope: "user:read" },
  "users.externalIdentities.unlink": { tier: "user", scope: "user:write" },
  "users.profile": { tier: "public" }, // extension: public profile (no email)
  "users.me": { tier: "user", scope: "user:read" },
  "users.updateProfile": { tier: "user", scope: "user:write" }, // extension
  "users.changePassword": { tier: "user", scope: "user:write" }, // extension; sessions only, current password
  "users.sessions": { tier: "user", scope: "user:read" },
  "users.revokeSession": { tier: "user", scope: "user:write" },
  "users.signOutEverywhere": { tier: "user", scope: "user:write" },
  "users.notificationSettings": { tier: "user", scope: "user:read" }, // docs/notifications-email.md
  "users.updateNotificationSettings": { tier: "user", scope: "user:write" },
  // two-factor (docs/security.md "Two-factor authentication"); sessions only (requireSession)
  "users.twoFactor.status": { tier: "user", scope: "user:read" },
  "users.twoFactor.setup": { tier: "user", scope: "user:write" },
  "users.twoFactor.confirm": { tier: "user", scope: "user:write" },
  "users.twoFactor.disable": { tier: "user", scope: "user:write" },
  "users.twoFactor.regenerateRecoveryCodes": { tier: "user", scope: "user:write" },
  "users.twoFactor.verifySignIn": { tier: "public" }, // the pending session in the cookie; same-origin
  // passkeys (docs/security.md "Passkeys"); the user tier is sessions only (requireSession)
  "users.passkeys.list": { tier: "user", scope: "user:read" },
  "users.passkeys.registrationOptions": { tier: "user", scope: "user:write" },
  "users.passkeys.register": { tier: "user", scope: "user:write" },
  "users.passkeys.rename": { tier: "user", scope: "user:write" },
  "users.passkeys.delete": { tier: "user", scope: "user:write" },
  "users.passkeys.signInOptions": { tier: "public" }, // passwordless sign-in, step one
  "users.passkeys.secondFactorOptions": { tier: "public" }, // the pending sign-in's cookie
  "users.passkeys.secondFactorVerify": { tier: "public" }, // the pending sign-in's cookie
  // SSH keys (docs/ssh.md "Keys"): the caller's own
  "sshKeys.list": { tier: "user", scope: "user:read" },
  "sshKeys.add": { tier: "user", scope: "user:write" },
  "sshKeys.delete": { tier: "user", scope: "user:write" },
  // deploy keys (docs/ssh.md "Deploy keys"): repository admins
  "repos.deployKeys.list": { tier: "repo", level: "admin" },
  "repos.deployKeys.add": { tier: "repo", level: "admin" },
  "repos.deployKeys.delete": { tier: "repo", level: "admin" },
  // organizations (docs/orgs.md): reads public; changes by owners (checked in server/services/orgs)
  // with repo:admin, the scope that manages access (an owner is admin of every repository)
  "orgs.create": { tier: "user", scope: "repo:write" }, // as repos.create
  "orgs.get": { tier: "public" },
  "orgs.update": { tier: "user", scope: "repo:admin" },
  "orgs.delete": { tier: "user", scope: "repo:admin" },
  "orgs.list": { tier: "user", scope: "user:read" },
  "orgs.members": { tier: "public" },
  "orgs.addMember": { tier: "user", scope: "repo:admin" },
  "orgs.removeMember": { tier: "user", scope: "repo:admin" },
  "orgs.setRole": { tier: "user", scope: "repo:admin" },
  // teams (docs/orgs.md "Teams"): members read, owners change (checked in server/services/teams);
  // outsiders get NOT_FOUND
  "teams.create": { tier: "user", scope: "repo:admin" },
  "teams.list": { tier: "user", scope: "repo:read" },
  "teams.get": { tier: "user", scope: "repo:read" },
  "teams.update": { tier: "user", scope: "repo:admin" },
  "teams.delete": { tier: "user", scope: "repo:admin" },
  "teams.addMember": { tier: "user", scope: "repo:admin" },
  "teams.removeMember": { tier: "user", scope: "repo:admin" },
  "teams.addRepo": { tier: "user", scope: "repo:admin" },
  "teams.removeRepo": { tier: "user", scope: "repo:admin" },
  "teams.repoAccess": { tier: "repo", level: "admin" }, // the settings' Collaborators section, as repos.collaborators
  // notifications (docs/notifications.md "API"): the caller's own threads; reads show repository
  // content (repo:read, as the inbox), changes to the caller's own state need user:write
  "notifications.list": { tier: "user", scope: "repo:read" },
  "notifications.unreadCount": { tier: "user", scope: "repo:read" },
  "notifications.markRead": { tier: "user", scope: "user:write" },
  "notifications.markUnread": { tier: "user", scope: "user:write" },
  "notifications.markDone": { tier: "user", scope: "user:write" },
  "notifications.markAllRead": { tier: "user", scope: "user:write" },
  "notifications.subscription": { tier: "user", scope: "repo:read" }, // the service checks the subject's repository (NOT_FOUND)
  "notifications.subscribe": { tier: "user", scope: "user:write" },
  "notifications.unsubscribe": { tier: "user", scope: "user:write" },
  // repos
  "repos.watch": { tier: "repo", level: "read", scope: "user:write" }, // the caller's watch level (docs/notifications.md)
  "repos.create": { tier: "user", scope: "repo:write" },
  "repos.list": { tier: "public" },
  "repos.get": { tier: "repo", level: "read" },
  "repos.update": { tier: "repo", level: "admin" },
  "repos.delete": { tier: "repo", level: "admin" },
  "repos.transfer": { tier: "repo", level: "admin" }, // and allowed to create in the target (docs/orgs.md "Transferring a repository")
  "repos.redirect": { tier: "public" }, // a former path's current one, only when the caller can read it
  "repos.fork": { tier: "user", scope: "repo:write" }, // the service authorizes the parent for read (NOT_FOUND)
  "repos.branches": { tier: "repo", level: "read" },
  "repos.lfsUsage": { tier: "repo", level: "read" },
  "repos.tree": { tier: "repo", level: "read" },
  "repos.blob": { tier: "repo", level: "read" },
  "repos.blobLines": { tier: "repo", level: "read" }, // the diff viewer's expand rows
  "repos.commits": { tier: "repo", level: "read" },
  "repos.files": { tier: "repo", level: "read" }, // the file finder
  "repos.tags": { tier: "repo", level: "read" }, // the branch switcher's Tags tab
  "repos.assignees": { tier: "repo", level: "read" },
  "repos.collaborators": { tier: "repo", level: "admin" },
  "repos.addCollaborator": { tier: "repo", level: "admin" },
  "repos.removeCollaborator": { tier: "repo", level: "admin" },
  "repos.commit": { tier: "repo", level: "read" }, // the commit page (diff model)
  "repos.compare": { tier: "repo", level: "read" }, // the compare page (diff model)
  "repos.commitDiffPage": { tier: "repo", level: "read" }, // hunk pages of repos.commit
  "repos.compareDiffPage": { tier: "repo", level: "read" }, // hunk pages of repos.compare
  "repos.commitCount": { tier: "repo", level: "read" }, // the repository page
  "repos.network": { tier: "repo", level: "read" }, // the compare page's head repositories (readable parent and forks)
  // issues (docs/issues.md). create/addComment are read-level: read-only callers' issues
  // land in triage; update/deleteComment: the author, or write permission (checked in the service).
  "issues.listMine": { tier: "user", scope: "repo:read" }, // extension: across readable repositories
  "issues.list": { tier: "repo", level: "read" },
  "issues.counts": { tier: "repo", level: "read" },
  "issues.get": { tier: "repo", level: "read" },
  "issues.create": { tier: "repo", level: "read" },
  "issues.update": { tier: "repo", level: "write" },
  "issues.bulkUpdate": { tier: "repo", level: "write" }, // extension: the list's bulk edit
  "issues.close": { tier: "repo", level: "write" },
  "issues.reopen": { tier: "repo", level: "write" },
  "issues.updatePriority": { tier: "repo", level: "write" },
  "issues.setDueDate": { tier: "repo", level: "write" },
  "issues.clearDueDate": { tier: "repo", level: "write" },
  "issues.setEstimate": { tier: "repo", level: "write" },
  "issues.clearEstimate": { tier: "repo", level: "write" },
  "issues.listOverdue": { tier: "repo", level: "read" },
  "issues.listDueSoon": { tier: "repo", level: "read" },
  "issues.getTotalEstimate": { tier: "repo", level: "read" },
  "issues.setParent": { tier: "repo", level: "write" },
  "issues.removeParent": { tier: "repo", level: "write" },
  "issues.getSubIssues": { tier: "repo", level: "read" },
  "issues.getSubIssueProgress": { tier: "repo", level: "read" },
  "issues.createSubIssue": { tier: "repo", level: "write" },
  "issues.addRelation": { tier: "repo", level: "write" },
  "issues.removeRelation": { tier: "repo", level: "write" },
  "issues.getRelations": { tier: "repo", level: "read" },
  "issues.isBlocked": { tier: "repo", level: "read" },
  "issues.markAsDuplicate": { tier: "repo", level: "write" },
  "issues.addComment": { tier: "repo", level: "read" },
  "issues.comments": { tier: "repo", level: "read" },
  "issues.updateComment": { tier: "repo", level: "read" },
  "issues.deleteComment": { tier: "repo", level: "read" },
  "issues.listLabels": { tier: "repo", level: "read" },
  "issues.createLabel": { tier: "repo", level: "write" },
  "issues.updateLabel": { tier: "repo", level: "write" },
  "issues.deleteLabel": { tier: "repo", level: "write" },
  "issues.addLabel": { tier: "repo", level: "write" },
  "issues.removeLabel": { tier: "repo", level: "write" },
  "issues.listGroupedByStatus": { tier: "repo", level: "read" },
  "issues.board": { tier: "repo", level: "read" }, // extension: paged board columns with counts
  "issues.boardColumn": { tier: "repo", level: "read" },
  "issues.updateStatus": { tier: "repo", level: "write" },
  "issues.move": { tier: "repo", level: "write" },
  "issues.statuses": { tier: "repo", level: "read" },
  "issues.priorities": { tier: "public" },
  "issues.listTriage": { tier: "repo", level: "read" },
  "issues.acceptTriage": { tier: "repo", level: "write" },
  "issues.rejectTriage": { tier: "repo", level: "write" },
  "issues.getActivity": { tier: "repo", level: "read" },
  "issues.getRepoActivity": { tier: "repo", level: "read" },
  "issues.listTemplates": { tier: "repo", level: "read" },
  "issues.getTemplate": { tier: "repo", level: "read" },
  "issues.createTemplate": { tier: "repo", level: "write" },
  "issues.updateTemplate": { tier: "repo", level: "write" },
  "issues.deleteTemplate": { tier: "repo", level: "write" },
  "issues.listViews": { tier: "repo", level: "read" },
  "issues.getView": { tier: "repo", level: "read" },
  "issues.createView": { tier: "repo", level: "write" },
  "issues.updateView": { tier: "repo", level: "write" },
  "issues.deleteView": { tier: "repo", level: "write" },
  "issues.getIssuesByView": { tier: "repo", level: "read" },
  // pull requests (docs/pulls.md "Records and timeline"). create is read-level, as on
  // GitHub (opening one moves no branch; a cross-repository source must be readable too);
  // update/close/reopen: the author, or write permission (checked in the service).
  "pulls.list": { tier: "repo", level: "read" },
  "pulls.get": { tier: "repo", level: "read" },
  "pulls.create": { tier: "repo", level: "read" },
  "pulls.update": { tier: "repo", level: "read" },
  "pulls.close": { tier: "repo", level: "read" },
  "pulls.reopen": { tier: "repo", level: "read" },
  "pulls.timeline": { tier: "repo", level: "read" }, // extension: the timeline events
  "pulls.counts": { tier: "repo", level: "read" }, // extension: per-state counts (list tabs, header badge)
  "pulls.recentBranches": { tier: "repo", level: "read" }, // extension: the "Compare & pull request" banner ([] below write)
  "pulls.viewedFiles": { tier: "repo", level: "read" }, // extension: the caller's viewed files ([] when anonymous)
  "pulls.setFileViewed": { tier: "repo", level: "read" }, // extension: a signed-in reader marks a file viewed (UNAUTHORIZED when anonymous)
  // diff part (docs/pulls.md "Diff")
  "pulls.getDiff": { tier: "repo", level: "read" },
  "pulls.getDiffFiles": { tier: "repo", level: "read" }, // the file list of getDiff, once
  "pulls.codeOwners": { tier: "repo", level: "read" }, // the Files tab's "Owned by" lines
  "pulls.getDiffPage": { tier: "repo", level: "read" }, // hunk pages of getDiff
  "pulls.getCommits": { tier: "repo", level: "read" },
  // merge engine part (docs/pulls.md "Mergeability", "Merge strategies", "Conflicts")
  "pulls.checkMergeability": { tier: "repo", level: "read" },
  "pulls.getConflicts": { tier: "repo", level: "read" },
  "pulls.merge": { tier: "repo", level: "write" },
  "pulls.enableAutoMerge": { tier: "repo", level: "write" }, // docs/pulls.md "Auto-merge"
  "pulls.disableAutoMerge": { tier: "repo", level: "write" },
  // after a merge (docs/pulls.md "Delete and restore the branch", "Revert"): the branch's
  // repository at write (a fork for cross-repository pull requests) is checked in the service
  "pulls.headBranch": { tier: "repo", level: "read" }, // extension
  "pulls.deleteBranch": { tier: "repo", level: "read", scope: "repo:write" }, // extension
  "pulls.restoreBranch": { tier: "repo", level: "read", scope: "repo:write" }, // extension
  "pulls.revert": { tier: "repo", level: "write" }, // extension
  // suggestions (docs/pulls.md "Suggestions"): read-level rows; the service needs write
  // permission on the repository holding the source branch (a fork for cross-repository pull
  // requests). The batch names several comments: user tier, the service authorizes the repository.
  "pulls.applySuggestion": { tier: "repo", level: "read" },
  "pulls.applySuggestions": { tier: "user", scope: "repo:read" }, // extension (GitHub's batch)
  // resolving conflicts (docs/pulls.md "Conflicts"): the same rule, the merge commit goes to the source branch
  "pulls.resolveConflicts": { tier: "repo", level: "read", scope: "repo:write" }, // extension (GitHub's web conflict editor)
  // inbox (docs/pulls.md "Inbox"): across readable repositories, checked in the SQL
  "pulls.inboxSummary": { tier: "user", scope: "repo:read" },
  "pulls.inboxAwaitingCount": { tier: "user", scope: "repo:read" },
  "pulls.inboxAwaitingReview": { tier: "user", scope: "repo:read" },
  "pulls.inboxMyPrs": { tier: "user", scope: "repo:read" },
  "pulls.inboxReadyToMerge": { tier: "user", scope: "repo:read" },
  "pulls.inboxParticipated": { tier: "user", scope: "repo:read" },
  // review part (docs/pulls.md "Review"). Any reader may review and comment, as on
  // GitHub, but mutations need a repo:write token; who may edit, delete or resolve a comment is
  // checked in the service (author / write). Labels and review requests: write (GitHub: triage).
  "pulls.addReview": { tier: "repo", level: "read", scope: "repo:write" },
  "pulls.reviews": { tier: "repo", level: "read" },
  "pulls.dismissReview": { tier: "repo", level: "write" }, // issue #23: a dismissed review stops counting for the merge requirements
  "pulls.addComment": { tier: "repo", level: "read", scope: "repo:write" },
  "pulls.comments": { tier: "repo", level: "read" },
  "pulls.revisions": { tier: "repo", level: "read" },
  "pulls.compareRevisions": { tier: "repo", level: "read" },
  "pulls.sinceReview": { tier: "repo", level: "read" }, // extension: changes since the caller's last review (null when anonymous)
  "pulls.compareRevisionsPage": { tier: "repo", level: "read" }, // hunk pages of compareRevisions
  "pulls.getFileComments": { tier: "repo", level: "read" },
  "pulls.updateComment": { tier: "repo", level: "read", scope: "repo:write" }, // the author only
  "pulls.deleteComment": { tier: "repo", level: "read", scope: "repo:write" }, // the author or write
  "pulls.resolveComment": { tier: "repo", level: "read", scope: "repo:write" }, // the thread's author or write
  "pulls.unresolveComment": { tier: "repo", level: "read", scope: "repo:write" }, // the thread's author or write
  "pulls.addSuggestion": { tier: "repo", level: "read", scope: "repo:write" },
  "pulls.labels": { tier: "repo", level: "read" },
  "pulls.addLabel": { tier: "repo", level: "write" },
  "pulls.removeLabel": { tier: "repo", level: "write" },
  "pulls.requestReview": { tier: "repo", level: "write" },
  "pulls.removeReviewRequest": { tier: "repo", level: "write" },
  "pulls.reviewers": { tier: "repo", level: "read" },
  "pulls.teamReviewers": { tier: "repo", level: "read" },
  // AI review (docs/ai.md "AI review"): readers see the latest run; a re-run is for the
  // author or write permission (the service checks, as pulls.update), with a token allowed to write
  "pulls.getAIReview": { tier: "repo", level: "read" },
  "pulls.triggerAIReview": { tier: "repo", level: "read", scope: "repo:write" },
  // stacks (docs/pulls.md "Stacks")
  "stacks.create": { tier: "repo", level: "write" },
  "stacks.get": { tier: "repo", level: "read" },
  "stacks.list": { tier: "repo", level: "read" },
  "stacks.reorder": { tier: "repo", level: "write" },
  "stacks.delete": { tier: "repo", level: "write" },
  // statuses (issue #23, docs/api.md "statuses"): reads for the UI; writes are the REST API under /api/v3
  "statuses.forCommits": { tier: "repo", level: "read" },
  "statuses.combined": { tier: "repo", level: "read" },
  // AI writing helpers (docs/ai.md): read access, and a signed-in caller (checked in
  // the router: a model call may spend the repository's key)
  "ai.generatePRDescription": { tier: "repo", level: "read" },
  "ai.summarizeForSquash": { tier: "repo", level: "read" },
  // ai (docs/ai.md "Semantic search", "Chat (`ai.chat`) and the Ask panel")
  "ai.semanticSearch": { tier: "repo", level: "read" }, // code search; queues an index refresh when stale
  "ai.searchIndexStatus": { tier: "repo", level: "read" }, // beyond the spec: the search page's indexing state
  "ai.chat": { tier: "repo", level: "read" }, // signed in (checked in the router: a model call may spend the repository's key)
  // AI code helpers (docs/ai.md): read-level, they work on what the caller sends
  "ai.explainFileDiff": { tier: "repo", level: "read" },
  "ai.suggestConflictResolution": { tier: "repo", level: "read" },
  // projects and cycles (docs/issues.md "Projects and cycles"; minimal)
  "projects.create": { tier: "repo", level: "write" },
  "projects.list": { tier: "repo", level: "read" },
  "projects.get": { tier: "repo", level: "read" }, // extension: the project page
  "projects.addIssue": { tier: "repo", level: "write" }, // extension
  "projects.removeIssue": { tier: "repo", level: "write" }, // extension
  "cycles.create": { tier: "repo", level: "write" },
  "cycles.list": { tier: "repo", level: "read" },
  "cycles.addIssue": { tier: "repo", level: "write" }, // extension
  "cycles.removeIssue": { tier: "repo", level: "write" }, // extension
  // AI (docs/ai.md). Rate limits by path: server/api/procedure-limits.ts.
  "ai.status": { tier: "public" }, // {repoId?}: the service authorizes read (NOT_FOUND, repo:read)
  // branch protection (docs/api.md "Branch protection")
  "branchProtection.list": { tier: "repo", level: "admin" },
  "branchProtection.get": { tier: "repo", level: "admin" },
  "branchProtection.upsert": { tier: "repo", level: "admin" },
  "branchProtection.delete": { tier: "repo", level: "admin" },
  "branchProtection.bypasses": { tier: "repo", level: "admin" },
  "repoAiKeys.list": { tier: "repo", level: "admin" },
  "repoAiKeys.set": { tier: "repo", level: "admin" },
  "repoAiKeys.delete": { tier: "repo", level: "admin" },
  "repoAiKeys.budget": { tier: "repo", level: "admin" }, // beyond the spec: the repository key's daily budget
  "repoAiKeys.setBudget": { tier: "repo", level: "admin" },
  // webhooks (docs/api.md "Webhooks"): repository admin; the secret is never returned
  "webhooks.list": { tier: "repo", level: "admin" },
  "webhooks.create": { tier: "repo", level: "admin" },
  "webhooks.update": { tier: "repo", level: "admin" },
  "webhooks.delete": { tier: "repo", level: "admin" },
  "webhooks.deliveries": { tier: "repo", level: "admin" },
  "webhooks.redeliver": { tier: "repo", level: "admin" },
  // coding agent (docs/agent.md). Sessions are the caller's own: user-tier rows whose
  // services find the session (another user's is NOT_FOUND) and authorize its repository;
  // approving commits to the repository: repo:write and write permission (checked in the service).
  "agent.status": { tier: "public" }, // a repoId, when given, is authorized for read in the service
  "agent.getModes": { tier: "public" },
  "agent.createSession": { tier: "repo", level: "read" }, // signed in (UNAUTHORIZED when anonymous)
  "agent.getSession": { tier: "user", scope: "repo:read" },
  "agent.listSessions": { tier: "user", scope: "repo:read" },
  "agent.updateSession": { tier: "user", scope: "repo:read" },
  "agent.deleteSession": { tier: "user", scope: "repo:read" },
  "agent.chat": { tier: "user", scope: "repo:read" },
  "agent.chatStream": { tier: "user", scope: "repo:read" },
  "agent.getMessages": { tier: "user", scope: "repo:read" },
  "agent.getPendingChanges": { tier: "user", scope: "repo:read" },
  "agent.proposeChange": { tier: "user", scope: "repo:read" }, // extension: a pending record; nothing touches the repository
  "agent.approveChange": { tier: "user", scope: "repo:write" },
  "agent.approveAllChanges": { tier: "user", scope: "repo:write" },
  "agent.rejectChange": { tier: "user", scope: "repo:read" }, // the caller's own proposal; nothing is applied
  "agent.openPullRequest": { tier: "user", scope: "repo:read" }, // extension: as pulls.create (read level)
};
