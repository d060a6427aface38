-- AlterTable
ALTER TABLE "RepoAiKey" ADD COLUMN "embeddingModel" TEXT;

