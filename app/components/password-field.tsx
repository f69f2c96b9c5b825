import { getInputProps } from '@conform-to/react'
import { type InputHTMLAttributes, useId, useState } from 'react'
import { useHydrated } from 'remix-utils/use-hydrated'
import { ErrorList, type ListOfErrors } from './ui/field.tsx'
import { Input, Label } from './ui/input.tsx'

/**
 * A password input with a show/hide toggle. The toggle flips the field in place, which needs
 * JavaScript: without it there is no toggle, since any link or post that re-rendered the form
 * with the field shown would lose what was typed.
 */
export function PasswordField({
	label,
	errors,
	inputProps,
	className,
}: {
	label: string
	errors?: ListOfErrors
	inputProps: InputHTMLAttributes<HTMLInputElement> & { name: string }
	className?: string
}) {
	const hydrated = useHydrated()
	const [revealed, setRevealed] = useState(false)
	const fallbackId = useId()
	const id = inputProps.id ?? fallbackId
	const errorId = `${id}-error`
	const hasErrors = Boolean(errors?.filter(Boolean).length)

	return (
		<div className={className}>
			<div className="flex items-center justify-between">
				<Label htmlFor={id}>{label}</Label>
				{hydrated ? (
					<button
						type="button"
						onClick={() => setRevealed((value) => !value)}
						aria-controls={id}
						aria-pressed={revealed}
						className="text-xs font-medium text-brand-700 hover:underline"
					>
						{revealed ? 'Hide' : 'Show'}
						<span className="sr-only"> {label.toLowerCase()}</span>
					</button>
				) : null}
			</div>
			<Input
				{...inputProps}
				id={id}
				type={revealed ? 'text' : 'password'}
				autoCapitalize="none"
				autoCorrect="off"
				spellCheck={false}
				className="mt-1"
				aria-invalid={hasErrors || undefined}
				aria-describedby={hasErrors ? errorId : undefined}
			/>
			<ErrorList id={errorId} errors={errors} />
		</div>
	)
}

/** A Conform field as a password input needs it. */
type PasswordFieldMetadata = Parameters<typeof getInputProps>[0]

/** A `PasswordField` for a Conform field: its input props and errors, and what a password manager may fill in. */
export function ConformPasswordField({
	label,
	field,
	autoComplete,
	inputProps,
}: {
	label: string
	field: PasswordFieldMetadata
	autoComplete: 'current-password' | 'new-password'
	/** More attributes for the input (a length limit, a change handler). */
	inputProps?: InputHTMLAttributes<HTMLInputElement>
}) {
	return (
		<PasswordField
			label={label}
			inputProps={{ ...getInputProps(field, { type: 'password' }), name: field.name, autoComplete, ...inputProps }}
			errors={field.errors}
		/>
	)
}

/** A new password and its confirmation, as the set-password pages ask for them. */
export function NewPasswordFields({
	password,
	confirmPassword,
	labels = ['Password', 'Confirm Password'],
	maxLength,
}: {
	password: PasswordFieldMetadata
	confirmPassword: PasswordFieldMetadata
	labels?: [string, string]
	maxLength?: number
}) {
	return (
		<>
			{[password, confirmPassword].map((field, index) => (
				<ConformPasswordField
					key={field.name}
					label={labels[index]!}
					field={field}
					autoComplete="new-password"
					inputProps={maxLength ? { maxLength } : undefined}
				/>
			))}
		</>
	)
}
