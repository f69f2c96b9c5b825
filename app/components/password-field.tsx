import { type InputHTMLAttributes, useId, useState } from 'react'
import { Link, useLocation } from 'react-router'
import { ErrorList, type ListOfErrors } from './ui/field.tsx'
import { Input, Label } from './ui/input.tsx'

/**
 * A password input with a show/hide toggle. With JavaScript the toggle flips
 * the field in place; without it, the toggle is a link (`?reveal=name`) that
 * re-renders the form with the field shown, so it works everywhere.
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
	const location = useLocation()
	const params = new URLSearchParams(location.search)
	const revealedOnServer = params.getAll('reveal').includes(inputProps.name)
	const [revealed, setRevealed] = useState(revealedOnServer)
	const fallbackId = useId()
	const id = inputProps.id ?? fallbackId
	const errorId = `${id}-error`
	const hasErrors = Boolean(errors?.filter(Boolean).length)

	const toggled = new URLSearchParams(params)
	toggled.delete('reveal', inputProps.name)
	if (!revealed) toggled.append('reveal', inputProps.name)
	const toggleSearch = toggled.toString()

	return (
		<div className={className}>
			<div className="flex items-center justify-between">
				<Label htmlFor={id}>{label}</Label>
				<Link
					to={{ pathname: location.pathname, search: toggleSearch ? `?${toggleSearch}` : '' }}
					replace
					preventScrollReset
					onClick={(event) => {
						event.preventDefault()
						setRevealed((value) => !value)
					}}
					role="button"
					aria-controls={id}
					aria-pressed={revealed}
					className="text-xs font-medium text-brand-700 hover:underline"
				>
					{revealed ? 'Hide' : 'Show'}
					<span className="sr-only"> {label.toLowerCase()}</span>
				</Link>
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
