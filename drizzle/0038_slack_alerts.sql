CREATE TABLE "slack_destinations" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"member_id" text,
	"url_sealed" text NOT NULL,
	"url_hint" text NOT NULL,
	"alerts" text[] NOT NULL,
	"scope" text DEFAULT 'all' NOT NULL,
	"disabled_at" timestamp with time zone,
	"disabled_reason" text,
	"last_delivery_at" timestamp with time zone,
	"updated_by_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "slack_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"destination_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"subject" text NOT NULL,
	"alert" text NOT NULL,
	"summary" text NOT NULL,
	"body" text NOT NULL,
	"viewer_email" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"locked_until" timestamp with time zone,
	"last_attempt_at" timestamp with time zone,
	"last_status_code" integer,
	"last_error" text,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "slack_destinations" ADD CONSTRAINT "slack_destinations_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "slack_destinations" ADD CONSTRAINT "slack_destinations_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "slack_messages" ADD CONSTRAINT "slack_messages_destination_id_slack_destinations_id_fk" FOREIGN KEY ("destination_id") REFERENCES "public"."slack_destinations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "slack_destinations_workspace_uq" ON "slack_destinations" USING btree ("workspace_id") WHERE member_id is null;--> statement-breakpoint
CREATE UNIQUE INDEX "slack_destinations_member_uq" ON "slack_destinations" USING btree ("member_id") WHERE member_id is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "slack_messages_subject_uq" ON "slack_messages" USING btree ("destination_id","subject");--> statement-breakpoint
CREATE INDEX "slack_messages_due_idx" ON "slack_messages" USING btree ("next_attempt_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "slack_messages_lease_idx" ON "slack_messages" USING btree ("locked_until") WHERE status = 'sending';--> statement-breakpoint
CREATE INDEX "slack_messages_log_idx" ON "slack_messages" USING btree ("destination_id","created_at");--> statement-breakpoint
CREATE INDEX "slack_messages_created_idx" ON "slack_messages" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "slack_messages_viewer_idx" ON "slack_messages" USING btree ("workspace_id","viewer_email");