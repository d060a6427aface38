import { redirect } from "next/navigation";

/** /settings lands on the account page. */
export default function SettingsPage() {
  redirect("/settings/account");
}
