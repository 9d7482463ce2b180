CREATE TABLE "recording_chunks" (
	"recording_id" text NOT NULL,
	"number" integer NOT NULL,
	"digest" text NOT NULL,
	"body_size" integer NOT NULL,
	"fields" jsonb NOT NULL,
	"screenshot" "bytea",
	"snapshot" "bytea",
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "recording_chunks_recording_id_number_pk" PRIMARY KEY("recording_id","number")
);
--> statement-breakpoint
CREATE TABLE "recording_uploads" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"member_id" text NOT NULL,
	"mode" text NOT NULL,
	"status" text DEFAULT 'uploading' NOT NULL,
	"step_count" integer NOT NULL,
	"title" text,
	"demo_id" text,
	"step_id" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "recording_uploads_mode_ck" CHECK ("recording_uploads"."mode" in ('new', 'append', 'replace_step')),
	CONSTRAINT "recording_uploads_status_ck" CHECK ("recording_uploads"."status" in ('uploading', 'completed')),
	CONSTRAINT "recording_uploads_step_count_ck" CHECK ("recording_uploads"."step_count" between 1 and 200)
);
--> statement-breakpoint
ALTER TABLE "recording_chunks" ADD CONSTRAINT "recording_chunks_recording_id_recording_uploads_id_fk" FOREIGN KEY ("recording_id") REFERENCES "public"."recording_uploads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recording_uploads" ADD CONSTRAINT "recording_uploads_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recording_uploads" ADD CONSTRAINT "recording_uploads_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recording_uploads" ADD CONSTRAINT "recording_uploads_demo_id_demos_id_fk" FOREIGN KEY ("demo_id") REFERENCES "public"."demos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recording_uploads" ADD CONSTRAINT "recording_uploads_step_id_steps_id_fk" FOREIGN KEY ("step_id") REFERENCES "public"."steps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recording_uploads_expires_idx" ON "recording_uploads" USING btree ("expires_at");