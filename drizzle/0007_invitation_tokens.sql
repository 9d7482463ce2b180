ALTER TABLE "members" ADD COLUMN "invited_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "joined_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "invite_token_digest" text;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "invite_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "invite_email_status" text;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "invite_email_error" text;--> statement-breakpoint
CREATE UNIQUE INDEX "members_invite_token_uq" ON "members" USING btree ("invite_token_digest");--> statement-breakpoint
-- Members from before invitations had tokens: joined when created, or invited then (without a live link:
-- an admin resends it, and only the new link can be accepted).
UPDATE "members" SET "joined_at" = "created_at" WHERE "status" = 'active';--> statement-breakpoint
UPDATE "members" SET "invited_at" = "created_at" WHERE "status" = 'invited' OR "invited_by_id" IS NOT NULL;
