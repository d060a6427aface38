-- AlterTable
ALTER TABLE "Repository" DROP COLUMN "nextPullNumber",
ADD COLUMN     "forkedFromId" TEXT;

-- CreateTable
CREATE TABLE "PullRequest" (
    "id" TEXT NOT NULL,
    "repoId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "body" TEXT,
    "state" TEXT NOT NULL DEFAULT 'open',
    "isDraft" BOOLEAN NOT NULL DEFAULT false,
    "sourceRepoId" TEXT NOT NULL,
    "sourceBranch" TEXT NOT NULL,
    "targetBranch" TEXT NOT NULL,
    "headSha" TEXT NOT NULL,
    "baseSha" TEXT NOT NULL,
    "sourceDeleted" BOOLEAN NOT NULL DEFAULT false,
    "authorId" TEXT,
    "mergedById" TEXT,
    "mergeSha" TEXT,
    "mergeStrategy" TEXT,
    "mergedAt" TIMESTAMP(3),
    "closedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PullRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PullRequestLabel" (
    "pullRequestId" TEXT NOT NULL,
    "labelId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PullRequestLabel_pkey" PRIMARY KEY ("pullRequestId","labelId")
);

-- CreateTable
CREATE TABLE "PullRequestEvent" (
    "id" SERIAL NOT NULL,
    "pullRequestId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "data" TEXT NOT NULL DEFAULT '{}',
    "actorId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PullRequestEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PullRequestReviewRequest" (
    "pullRequestId" TEXT NOT NULL,
    "reviewerId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PullRequestReviewRequest_pkey" PRIMARY KEY ("pullRequestId","reviewerId")
);

-- CreateTable
CREATE TABLE "PullRequestFileView" (
    "pullRequestId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "blobSha" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PullRequestFileView_pkey" PRIMARY KEY ("pullRequestId","userId","path")
);

-- CreateTable
CREATE TABLE "PullRequestMergeability" (
    "pullRequestId" TEXT NOT NULL,
    "baseTip" TEXT NOT NULL,
    "headSha" TEXT NOT NULL,
    "canMerge" BOOLEAN NOT NULL,
    "conflicts" TEXT NOT NULL DEFAULT '[]',
    "aheadBy" INTEGER NOT NULL,
    "behindBy" INTEGER NOT NULL,
    "error" TEXT,
    "checkedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PullRequestMergeability_pkey" PRIMARY KEY ("pullRequestId")
);

-- CreateTable
CREATE TABLE "Stack" (
    "id" TEXT NOT NULL,
    "repoId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "nameLower" TEXT NOT NULL,
    "baseBranch" TEXT NOT NULL,
    "creatorId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Stack_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "StackBranch" (
    "id" TEXT NOT NULL,
    "stackId" TEXT NOT NULL,
    "repoId" TEXT NOT NULL,
    "branchName" TEXT NOT NULL,
    "position" INTEGER NOT NULL,

    CONSTRAINT "StackBranch_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PullRequest_repoId_state_number_idx" ON "PullRequest"("repoId", "state", "number");

-- CreateIndex
CREATE INDEX "PullRequest_repoId_authorId_state_number_idx" ON "PullRequest"("repoId", "authorId", "state", "number");

-- CreateIndex
CREATE INDEX "PullRequest_sourceRepoId_sourceBranch_state_idx" ON "PullRequest"("sourceRepoId", "sourceBranch", "state");

-- CreateIndex
CREATE INDEX "PullRequest_repoId_targetBranch_state_idx" ON "PullRequest"("repoId", "targetBranch", "state");

-- CreateIndex
CREATE UNIQUE INDEX "PullRequest_repoId_number_key" ON "PullRequest"("repoId", "number");

-- CreateIndex
CREATE INDEX "PullRequestLabel_labelId_pullRequestId_idx" ON "PullRequestLabel"("labelId", "pullRequestId");

-- CreateIndex
CREATE INDEX "PullRequestEvent_pullRequestId_id_idx" ON "PullRequestEvent"("pullRequestId", "id");

-- CreateIndex
CREATE INDEX "PullRequestReviewRequest_reviewerId_idx" ON "PullRequestReviewRequest"("reviewerId");

-- CreateIndex
CREATE UNIQUE INDEX "Stack_repoId_nameLower_key" ON "Stack"("repoId", "nameLower");

-- CreateIndex
CREATE INDEX "StackBranch_stackId_position_idx" ON "StackBranch"("stackId", "position");

-- CreateIndex
CREATE UNIQUE INDEX "StackBranch_repoId_branchName_key" ON "StackBranch"("repoId", "branchName");

-- CreateIndex
CREATE INDEX "Repository_forkedFromId_idx" ON "Repository"("forkedFromId");

-- AddForeignKey
ALTER TABLE "Repository" ADD CONSTRAINT "Repository_forkedFromId_fkey" FOREIGN KEY ("forkedFromId") REFERENCES "Repository"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PullRequest" ADD CONSTRAINT "PullRequest_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PullRequest" ADD CONSTRAINT "PullRequest_sourceRepoId_fkey" FOREIGN KEY ("sourceRepoId") REFERENCES "Repository"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PullRequest" ADD CONSTRAINT "PullRequest_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PullRequest" ADD CONSTRAINT "PullRequest_mergedById_fkey" FOREIGN KEY ("mergedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PullRequestLabel" ADD CONSTRAINT "PullRequestLabel_pullRequestId_fkey" FOREIGN KEY ("pullRequestId") REFERENCES "PullRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PullRequestLabel" ADD CONSTRAINT "PullRequestLabel_labelId_fkey" FOREIGN KEY ("labelId") REFERENCES "Label"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PullRequestEvent" ADD CONSTRAINT "PullRequestEvent_pullRequestId_fkey" FOREIGN KEY ("pullRequestId") REFERENCES "PullRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PullRequestEvent" ADD CONSTRAINT "PullRequestEvent_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PullRequestReviewRequest" ADD CONSTRAINT "PullRequestReviewRequest_pullRequestId_fkey" FOREIGN KEY ("pullRequestId") REFERENCES "PullRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PullRequestReviewRequest" ADD CONSTRAINT "PullRequestReviewRequest_reviewerId_fkey" FOREIGN KEY ("reviewerId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PullRequestFileView" ADD CONSTRAINT "PullRequestFileView_pullRequestId_fkey" FOREIGN KEY ("pullRequestId") REFERENCES "PullRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PullRequestFileView" ADD CONSTRAINT "PullRequestFileView_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PullRequestMergeability" ADD CONSTRAINT "PullRequestMergeability_pullRequestId_fkey" FOREIGN KEY ("pullRequestId") REFERENCES "PullRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Stack" ADD CONSTRAINT "Stack_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StackBranch" ADD CONSTRAINT "StackBranch_stackId_fkey" FOREIGN KEY ("stackId") REFERENCES "Stack"("id") ON DELETE CASCADE ON UPDATE CASCADE;

