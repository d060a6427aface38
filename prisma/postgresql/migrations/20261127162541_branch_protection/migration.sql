-- AlterTable
ALTER TABLE "PullRequestReview" ADD COLUMN     "dismissReason" TEXT,
ADD COLUMN     "dismissedAt" TIMESTAMP(3),
ADD COLUMN     "dismissedById" TEXT;

-- CreateTable
CREATE TABLE "BranchProtection" (
    "id" TEXT NOT NULL,
    "repoId" TEXT NOT NULL,
    "pattern" TEXT NOT NULL,
    "requirePullRequest" BOOLEAN NOT NULL DEFAULT false,
    "requiredApprovals" INTEGER NOT NULL DEFAULT 0,
    "dismissStaleApprovals" BOOLEAN NOT NULL DEFAULT false,
    "requireCodeOwnerReview" BOOLEAN NOT NULL DEFAULT false,
    "requiredStatusChecks" TEXT NOT NULL DEFAULT '[]',
    "requireUpToDate" BOOLEAN NOT NULL DEFAULT false,
    "allowForcePush" BOOLEAN NOT NULL DEFAULT false,
    "allowDeletion" BOOLEAN NOT NULL DEFAULT false,
    "pushAllowlist" TEXT NOT NULL DEFAULT '[]',
    "enforceAdmins" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "BranchProtection_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BranchProtectionBypass" (
    "id" TEXT NOT NULL,
    "repoId" TEXT NOT NULL,
    "pattern" TEXT NOT NULL,
    "userId" TEXT,
    "ref" TEXT NOT NULL,
    "oldSha" TEXT NOT NULL,
    "newSha" TEXT NOT NULL,
    "rules" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BranchProtectionBypass_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "BranchProtection_repoId_pattern_key" ON "BranchProtection"("repoId", "pattern");

-- CreateIndex
CREATE INDEX "BranchProtectionBypass_repoId_createdAt_idx" ON "BranchProtectionBypass"("repoId", "createdAt");

-- AddForeignKey
ALTER TABLE "BranchProtection" ADD CONSTRAINT "BranchProtection_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BranchProtectionBypass" ADD CONSTRAINT "BranchProtectionBypass_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository"("id") ON DELETE CASCADE ON UPDATE CASCADE;

