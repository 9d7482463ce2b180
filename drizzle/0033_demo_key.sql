ALTER TABLE "demos" ADD COLUMN "key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "demos_workspace_key_uq" ON "demos" USING btree ("workspace_id","key") WHERE key is not null;