CREATE TABLE "refund_lines" (
	"refund_id" uuid NOT NULL,
	"order_item_id" bigint NOT NULL,
	"quantity" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	CONSTRAINT "refund_lines_refund_id_order_item_id_pk" PRIMARY KEY("refund_id","order_item_id"),
	CONSTRAINT "refund_lines_quantity_not_negative" CHECK ("refund_lines"."quantity" >= 0),
	CONSTRAINT "refund_lines_amount_not_negative" CHECK ("refund_lines"."amount_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "vat_basis" text DEFAULT 'legacy' NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "delivery_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "refund_lines" ADD CONSTRAINT "refund_lines_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_lines" ADD CONSTRAINT "refund_lines_order_item_id_order_items_id_fk" FOREIGN KEY ("order_item_id") REFERENCES "public"."order_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refund_lines_order_item_idx" ON "refund_lines" USING btree ("order_item_id");--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_vat_basis_known" CHECK ("refunds"."vat_basis" in ('legacy', 'lines', 'proportional'));--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_delivery_within_amount" CHECK ("refunds"."delivery_cents" between 0 and "refunds"."amount_cents");