-- AlterTable (ADD COLUMN rather than redefining the tables: SQLite adds a column with a constant default in place)
ALTER TABLE "SearchIndex" ADD COLUMN "chunker" INTEGER NOT NULL DEFAULT 1;

-- AlterTable
ALTER TABLE "SearchBlob" ADD COLUMN "chunker" INTEGER NOT NULL DEFAULT 1;
