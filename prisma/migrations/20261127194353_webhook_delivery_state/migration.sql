-- CreateIndex
CREATE INDEX "WebhookDelivery_state_createdAt_idx" ON "WebhookDelivery"("state", "createdAt");

