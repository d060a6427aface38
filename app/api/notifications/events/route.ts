import { notificationEvents } from "@/server/http/notification-events";

export const dynamic = "force-dynamic";
export const GET = (req: Request) => notificationEvents(req);
