import { useQueryClient } from "@tanstack/react-query";
import {
  type FieldErrors,
  type PasswordChange,
  passwordInputMaxLength,
  validatePasswordChange,
} from "@trialdesk/domain";
import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import { ApiError, api } from "../../api/client";
import { invalidateResource } from "../../api/queries";
import { toast } from "../../app/toast";
import { useGoBack } from "../../screens/navigation";
import { Button } from "../../ui/button";
import { Field } from "../../ui/field";
import { Input } from "../../ui/input";

const fields: { name: keyof PasswordChange; label: string; autoComplete: string }[] = [
  { name: "currentPassword", label: "Current password", autoComplete: "current-password" },
  { name: "password", label: "New password", autoComplete: "new-password" },
  { name: "password2", label: "New password confirmation", autoComplete: "new-password" },
];

/**
 * The user menu's Change password (/change-password): the current password, then the new one
 * twice, with the users' password rules. The server ends every other sign-in of the user; this
 * browser stays signed in.
 */
export function ChangePasswordPage() {
  const navigate = useNavigate();
  const goBack = useGoBack("/");
  const queryClient = useQueryClient();
  const [data, setData] = useState<PasswordChange>({ currentPassword: "", password: "", password2: "" });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validatePasswordChange(data);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    try {
      await api.post("me/password", data);
      // The user's record shows when the password last changed.
      void invalidateResource(queryClient, "users");
      toast({
        title: "Password changed",
        description: "Your other sessions have been signed out.",
        variant: "success",
      });
      navigate("/");
    } catch (error) {
      if (error instanceof ApiError && error.isBadRequest && error.fieldErrors.length > 0) {
        setErrors(Object.fromEntries(error.fieldErrors.map((e) => [e.field, e.message])));
        toast({ title: "Invalid field data", variant: "destructive" });
      } else {
        toast({ title: "Error during save", description: (error as Error).message, variant: "destructive" });
      }
    } finally {
      setSaving(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="mx-auto flex max-w-md flex-col gap-4">
      <h1 className="text-xl font-semibold text-gray-900">Change password</h1>
      <div className="flex flex-col gap-4 rounded-lg border border-gray-200 bg-white p-4 shadow-sm">
        {fields.map((field) => (
          <Field
            key={field.name}
            id={`field-${field.name}`}
            label={field.label}
            required
            error={errors[field.name]}
            hint={field.name === "password" ? "At least 8 characters" : undefined}
          >
            {(control) => (
              <Input
                {...control}
                type="password"
                maxLength={passwordInputMaxLength}
                autoComplete={field.autoComplete}
                invalid={Boolean(errors[field.name])}
                value={data[field.name]}
                onChange={(event) => setData({ ...data, [field.name]: event.target.value })}
              />
            )}
          </Field>
        ))}
      </div>
      <div className="flex gap-2">
        <Button type="button" variant="secondary" onClick={goBack}>
          Back
        </Button>
        <Button type="submit" disabled={saving}>
          Save
        </Button>
      </div>
    </form>
  );
}
