-- AlterTable
ALTER TABLE "PullRequestFileView" ADD COLUMN "patchId" TEXT;

