-- AlterTable
ALTER TABLE "ProposedChange" ADD COLUMN     "issueNumber" INTEGER,
ADD COLUMN     "title" TEXT;

