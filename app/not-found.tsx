import Link from "next/link";
import { button } from "@/components/ui/styles";

export default function NotFound() {
  return (
    <div className="mx-auto max-w-lg px-4 py-24 text-center" data-testid="not-found">
      <p className="font-mono text-5xl font-bold text-slate-300">404</p>
      <h1 className="mt-4 text-2xl font-semibold">This page could not be found</h1>
      <p className="mt-2 text-sm text-slate-600">The repository, branch or file does not exist, or you do not have access to it.</p>
      <Link href="/" className={`${button.secondary} mt-6`}>
        Back to your dashboard
      </Link>
    </div>
  );
}
