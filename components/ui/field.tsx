"use client";
import { createContext, useContext, useId } from "react";
import { cx } from "./styles";

type FieldState = { id: string; describedBy?: string; invalid: boolean };
const FieldContext = createContext<FieldState | null>(null);

/** The id, aria-describedby and aria-invalid a control inside a <Field> takes (Input, Textarea, Select read it). */
export function useField(): FieldState | null {
  return useContext(FieldContext);
}

/**
 * A labelled form control: label, the control (children), a hint, and an error. The control gets
 * the label's id, `aria-describedby` pointing at the hint and error, and `aria-invalid` when
 * there is an error, so screen readers read all of it (WCAG 1.3.1, 3.3.1).
 */
export function Field({
  label,
  hint,
  error,
  children,
  className,
  id: givenId,
  required,
}: {
  label: React.ReactNode;
  hint?: React.ReactNode;
  error?: string | null;
  children: React.ReactNode;
  className?: string;
  id?: string;
  required?: boolean;
}) {
  const auto = useId();
  const id = givenId ?? `f${auto.replace(/:/g, "")}`;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <FieldContext.Provider value={{ id, describedBy, invalid: !!error }}>
      <div className={cx("space-y-1", className)}>
        <label htmlFor={id} className="block text-sm font-medium text-foreground">
          {label}
          {required && (
            <span className="ml-0.5 text-danger" aria-hidden="true">
              *
            </span>
          )}
        </label>
        {children}
        {hint && (
          <p id={hintId} className="text-xs text-subtle-foreground">
            {hint}
          </p>
        )}
        {error && (
          <p id={errorId} className="text-xs font-medium text-danger" data-testid="field-error">
            {error}
          </p>
        )}
      </div>
    </FieldContext.Provider>
  );
}
