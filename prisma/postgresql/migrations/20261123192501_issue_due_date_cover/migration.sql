-- DropIndex
DROP INDEX "Issue_repoId_state_dueDate_idx";

-- CreateIndex
CREATE INDEX "Issue_repoId_state_dueDate_number_id_idx" ON "Issue"("repoId", "state", "dueDate", "number", "id");

