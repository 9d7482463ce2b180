ALTER TABLE "oauth_apps" ADD COLUMN "verified" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "oauth_grants" ADD COLUMN "last_used_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "oauth_grants_user_idx" ON "oauth_grants" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "oauth_grants_workspace_idx" ON "oauth_grants" USING btree ("workspace_id");--> statement-breakpoint
-- The recorder client ships with Demoshare itself: the instance vouches for it.
UPDATE "oauth_apps" SET "verified" = true WHERE "id" = 'demoshare-recorder';
