-- AlterTable
ALTER TABLE "PullRequestFileView" ADD COLUMN "headSha" TEXT;

