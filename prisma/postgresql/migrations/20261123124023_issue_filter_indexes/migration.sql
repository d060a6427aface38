-- DropIndex
DROP INDEX "Issue_repoId_status_boardPosition_idx";

-- DropIndex
DROP INDEX "Issue_repoId_dueDate_idx";

-- DropIndex
DROP INDEX "IssueLabel_labelId_idx";

-- CreateIndex
CREATE INDEX "Issue_repoId_status_boardPosition_number_estimate_idx" ON "Issue"("repoId", "status", "boardPosition", "number", "estimate");

-- CreateIndex
CREATE INDEX "Issue_repoId_status_number_idx" ON "Issue"("repoId", "status", "number");

-- CreateIndex
CREATE INDEX "Issue_repoId_priority_number_idx" ON "Issue"("repoId", "priority", "number" DESC);

-- CreateIndex
CREATE INDEX "Issue_repoId_updatedAt_number_idx" ON "Issue"("repoId", "updatedAt", "number");

-- CreateIndex
CREATE INDEX "Issue_repoId_createdAt_number_idx" ON "Issue"("repoId", "createdAt", "number");

-- CreateIndex
CREATE INDEX "Issue_repoId_state_dueDate_idx" ON "Issue"("repoId", "state", "dueDate");

-- CreateIndex
CREATE INDEX "IssueLabel_labelId_issueId_idx" ON "IssueLabel"("labelId", "issueId");

