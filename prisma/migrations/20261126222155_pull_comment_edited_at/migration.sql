-- AlterTable
ALTER TABLE "PullRequestComment" ADD COLUMN "editedAt" DATETIME;

