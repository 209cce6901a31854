import { Badge } from "@/components/ui/badge";
import { formatHttpStatus } from "@/lib/client/format";
import type { Webhook } from "@/lib/webhooks/schema";

type Failure = NonNullable<NonNullable<Webhook["status"]>["lastFailure"]>;

export type WebhookHealth =
  | { state: "failing"; failure: Failure; lastDeliveryAt: number }
  | { state: "healthy"; lastDeliveryAt: number; recoveredFrom?: Failure }
  | { state: "unused" };

/**
 * The server keeps the time of the last attempt and the last failure; a success
 * moves only the first. So a webhook is failing while its last failure is its
 * last attempt, and healthy again once a later attempt went through.
 */
export function webhookHealth(webhook: Pick<Webhook, "status">): WebhookHealth {
  const { lastTriggeredAt, lastFailure } = webhook.status ?? {};
  if (lastFailure && lastFailure.timestamp >= (lastTriggeredAt ?? 0)) {
    return { state: "failing", failure: lastFailure, lastDeliveryAt: lastFailure.timestamp };
  }
  if (lastTriggeredAt) return { state: "healthy", lastDeliveryAt: lastTriggeredAt, recoveredFrom: lastFailure };
  return { state: "unused" };
}

/** What went wrong, as short as the list has room for: "HTTP 404 Not Found" or the network error. */
export function failureSummary(failure: Failure): string {
  if (failure.statusCode) return `HTTP ${formatHttpStatus(failure.statusCode)}`;
  return failure.error ?? "Delivery failed";
}

export function WebhookHealthBadge({ health }: { health: WebhookHealth }) {
  if (health.state === "failing") {
    return (
      <Badge tone="red">
        <span className="size-1.5 rounded-full bg-red-500" aria-hidden="true" />
        Failing
      </Badge>
    );
  }
  if (health.state === "healthy") {
    return (
      <Badge tone="green">
        <span className="size-1.5 rounded-full bg-emerald-500" aria-hidden="true" />
        Healthy
      </Badge>
    );
  }
  return <Badge>No deliveries yet</Badge>;
}
