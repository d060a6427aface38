import { Slot } from "radix-ui";
import { forwardRef } from "react";
import { buttonClass, cx, type ButtonSize, type ButtonVariant } from "./styles";

export { buttonClass };

export type ButtonProps = React.ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Render the child element (e.g. a next/link) with the button's look instead of a <button>. */
  asChild?: boolean;
};

/** The one button of the UI (variants primary, secondary, danger, dangerOutline, ghost; sizes sm, md, icon). `type` defaults to "button". */
export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant, size, asChild, className, type, ...props },
  ref,
) {
  const Comp = asChild ? Slot.Root : "button";
  return (
    <Comp ref={ref} type={asChild ? undefined : (type ?? "button")} className={cx(buttonClass({ variant, size }), className)} {...props} />
  );
});
