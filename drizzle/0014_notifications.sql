CREATE TABLE "notification_settings" (
	"member_id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"mode" text NOT NULL,
	"scope" text DEFAULT 'all' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_settings_mode_ck" CHECK ("notification_settings"."mode" in ('off', 'instant', 'daily')),
	CONSTRAINT "notification_settings_scope_ck" CHECK ("notification_settings"."scope" in ('all', 'mine'))
);
--> statement-breakpoint
CREATE TABLE "notifications_sent" (
	"member_id" text NOT NULL,
	"day" date NOT NULL,
	"subject" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notifications_sent_member_id_day_subject_pk" PRIMARY KEY("member_id","day","subject")
);
--> statement-breakpoint
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications_sent" ADD CONSTRAINT "notifications_sent_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_settings_workspace_idx" ON "notification_settings" USING btree ("workspace_id","mode");--> statement-breakpoint
CREATE INDEX "notifications_sent_day_idx" ON "notifications_sent" USING btree ("day");