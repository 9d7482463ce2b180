ALTER TABLE "demos" ADD COLUMN "generation_keep_edited" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "steps" ADD COLUMN "edited_at" timestamp with time zone;