CREATE TABLE "experiment_arms" (
	"id" text PRIMARY KEY NOT NULL,
	"experiment_id" text NOT NULL,
	"position" integer NOT NULL,
	"label" text NOT NULL,
	"demo_id" text,
	"version" integer,
	"weight" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "experiments" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"share_id" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"metric" text NOT NULL,
	"status" text NOT NULL,
	"winner_arm_id" text,
	"started_at" timestamp with time zone NOT NULL,
	"stopped_at" timestamp with time zone,
	"created_by_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "viewer_sessions" ADD COLUMN "arm_id" text;--> statement-breakpoint
ALTER TABLE "views" ADD COLUMN "arm_id" text;--> statement-breakpoint
ALTER TABLE "experiment_arms" ADD CONSTRAINT "experiment_arms_experiment_id_experiments_id_fk" FOREIGN KEY ("experiment_id") REFERENCES "public"."experiments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experiment_arms" ADD CONSTRAINT "experiment_arms_demo_id_demos_id_fk" FOREIGN KEY ("demo_id") REFERENCES "public"."demos"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experiments" ADD CONSTRAINT "experiments_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experiments" ADD CONSTRAINT "experiments_share_id_shares_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."shares"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experiments" ADD CONSTRAINT "experiments_created_by_id_members_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "experiment_arms_experiment_idx" ON "experiment_arms" USING btree ("experiment_id","position");--> statement-breakpoint
CREATE INDEX "experiment_arms_demo_idx" ON "experiment_arms" USING btree ("demo_id");--> statement-breakpoint
CREATE INDEX "experiments_share_idx" ON "experiments" USING btree ("share_id","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "experiments_running_uq" ON "experiments" USING btree ("share_id") WHERE status = 'running';--> statement-breakpoint
CREATE INDEX "views_arm_idx" ON "views" USING btree ("arm_id") WHERE arm_id is not null;