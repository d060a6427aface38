"use client";
import { forwardRef } from "react";
import { useField } from "./field";
import { cx, input as inputClass } from "./styles";

/** A text input; inside a <Field> it takes the field's id and ARIA wiring. */
export const Input = forwardRef<HTMLInputElement, React.InputHTMLAttributes<HTMLInputElement>>(function Input(
  { className, ...props },
  ref,
) {
  const field = useField();
  return (
    <input
      ref={ref}
      id={field?.id}
      aria-describedby={field?.describedBy}
      aria-invalid={field?.invalid || undefined}
      className={cx(inputClass, className)}
      {...props}
    />
  );
});

/** A multi-line text input; inside a <Field> it takes the field's id and ARIA wiring. */
export const Textarea = forwardRef<HTMLTextAreaElement, React.TextareaHTMLAttributes<HTMLTextAreaElement>>(function Textarea(
  { className, ...props },
  ref,
) {
  const field = useField();
  return (
    <textarea
      ref={ref}
      id={field?.id}
      aria-describedby={field?.describedBy}
      aria-invalid={field?.invalid || undefined}
      className={cx(inputClass, "min-h-24", className)}
      {...props}
    />
  );
});

/**
 * A native `<select>` (for short option lists in forms, where the platform picker suits phones);
 * inside a <Field> it takes the field's id and ARIA wiring. Options are its children.
 */
export const NativeSelect = forwardRef<HTMLSelectElement, React.SelectHTMLAttributes<HTMLSelectElement>>(function NativeSelect(
  { className, ...props },
  ref,
) {
  const field = useField();
  return (
    <select
      ref={ref}
      id={field?.id}
      aria-describedby={field?.describedBy}
      aria-invalid={field?.invalid || undefined}
      className={cx(inputClass, className)}
      {...props}
    />
  );
});
