import { redirect } from "next/navigation";

/** /settings lands on the account page (issue #7). */
export default function SettingsPage() {
  redirect("/settings/account");
}
