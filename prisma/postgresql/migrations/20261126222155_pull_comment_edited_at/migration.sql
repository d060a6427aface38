-- AlterTable
ALTER TABLE "PullRequestComment" ADD COLUMN     "editedAt" TIMESTAMP(3);

