-- AlterTable
ALTER TABLE "PullRequest" ADD COLUMN     "autoMergeById" TEXT,
ADD COLUMN     "autoMergeEnabledAt" TIMESTAMP(3),
ADD COLUMN     "autoMergeMessage" TEXT,
ADD COLUMN     "autoMergeStrategy" TEXT;

-- AddForeignKey
ALTER TABLE "PullRequest" ADD CONSTRAINT "PullRequest_autoMergeById_fkey" FOREIGN KEY ("autoMergeById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

