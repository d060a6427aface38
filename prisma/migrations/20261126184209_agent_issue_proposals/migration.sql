-- AlterTable
ALTER TABLE "ProposedChange" ADD COLUMN "issueNumber" INTEGER;
ALTER TABLE "ProposedChange" ADD COLUMN "title" TEXT;

