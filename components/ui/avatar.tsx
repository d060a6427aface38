import { cx } from "./styles";

/**
 * The hue of a user's initials avatar: a stable function of the username, so a person has the
 * same colour on every page. Lightness 32 % keeps white initials above 4.5:1 at every hue.
 */
export function avatarHue(username: string): number {
  let h = 0;
  for (const ch of username) h = (h * 31 + ch.charCodeAt(0)) % 360;
  return h;
}

const sizes = { xs: "h-5 w-5 text-[10px]", sm: "h-6 w-6 text-[11px]", md: "h-8 w-8 text-sm", lg: "h-20 w-20 text-3xl" } as const;

/** A user's initials in a coloured circle (decorative: the name is always shown or given by `title`). */
export function Avatar({ username, size = "xs", className }: { username: string; size?: keyof typeof sizes; className?: string }) {
  return (
    <span
      className={cx(
        "inline-flex shrink-0 select-none items-center justify-center rounded-full font-semibold uppercase text-white",
        sizes[size],
        className,
      )}
      style={{ backgroundColor: `hsl(${avatarHue(username)} 55% 32%)` }}
      title={username}
      aria-hidden="true"
      data-testid="avatar"
    >
      {username.slice(0, 1)}
    </span>
  );
}
