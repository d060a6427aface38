-- CreateIndex
CREATE INDEX "PullRequest_authorId_state_updatedAt_idx" ON "PullRequest"("authorId", "state", "updatedAt");

