import { type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes, useId } from 'react'
import { cn } from '#app/utils/misc.ts'
import { Input, Label, Select, Textarea } from './input.tsx'

export type ListOfErrors = Array<string | null | undefined> | null | undefined

export function ErrorList({ id, errors }: { id?: string; errors?: ListOfErrors }) {
	const messages = errors?.filter(Boolean)
	if (!messages?.length) return null
	return (
		<ul id={id} className="mt-1 space-y-0.5">
			{messages.map((message) => (
				<li key={message} className="text-sm text-red-700">
					{message}
				</li>
			))}
		</ul>
	)
}

type FieldShellProps = {
	label: ReactNode
	errors?: ListOfErrors
	help?: ReactNode
	className?: string
}

function useFieldIds(explicitId?: string) {
	const fallback = useId()
	const id = explicitId ?? fallback
	return { id, errorId: `${id}-error`, helpId: `${id}-help` }
}

/** What a control needs to be read with its label, help and errors. */
type ControlWiring = { id: string; 'aria-invalid': true | undefined; 'aria-describedby': string | undefined }

/** The label, help text and errors around one control, which `control` renders with the wiring it is given. */
function FieldShell({
	label,
	errors,
	help,
	className,
	controlId,
	control,
}: FieldShellProps & { controlId?: string; control: (wiring: ControlWiring) => ReactNode }) {
	const { id, errorId, helpId } = useFieldIds(controlId)
	const hasErrors = Boolean(errors?.filter(Boolean).length)
	const describedBy = [hasErrors ? errorId : null, help ? helpId : null].filter(Boolean).join(' ') || undefined
	return (
		<div className={cn('space-y-1', className)}>
			<Label htmlFor={id}>{label}</Label>
			{control({ id, 'aria-invalid': hasErrors || undefined, 'aria-describedby': describedBy })}
			{help ? (
				<p id={helpId} className="text-xs text-slate-600">
					{help}
				</p>
			) : null}
			<ErrorList id={errorId} errors={errors} />
		</div>
	)
}

/** Label, input, help text and errors, wired for screen readers. */
export function Field({ inputProps, ...shell }: FieldShellProps & { inputProps: InputHTMLAttributes<HTMLInputElement> }) {
	return <FieldShell {...shell} controlId={inputProps.id} control={(wiring) => <Input {...inputProps} {...wiring} />} />
}

export function TextareaField({
	textareaProps,
	...shell
}: FieldShellProps & { textareaProps: TextareaHTMLAttributes<HTMLTextAreaElement> }) {
	return <FieldShell {...shell} controlId={textareaProps.id} control={(wiring) => <Textarea {...textareaProps} {...wiring} />} />
}

export function SelectField({
	selectProps,
	children,
	...shell
}: FieldShellProps & { selectProps: SelectHTMLAttributes<HTMLSelectElement>; children: ReactNode }) {
	return (
		<FieldShell
			{...shell}
			controlId={selectProps.id}
			control={(wiring) => (
				<Select {...selectProps} {...wiring}>
					{children}
				</Select>
			)}
		/>
	)
}

export function CheckboxField({
	label,
	errors,
	className,
	inputProps,
}: Omit<FieldShellProps, 'help'> & { inputProps: InputHTMLAttributes<HTMLInputElement> }) {
	const { id, errorId } = useFieldIds(inputProps.id)
	const hasErrors = Boolean(errors?.filter(Boolean).length)
	return (
		<div className={className}>
			<div className="flex items-start gap-2">
				<input
					type="checkbox"
					{...inputProps}
					id={id}
					aria-invalid={hasErrors || undefined}
					aria-describedby={hasErrors ? errorId : undefined}
					className="mt-1 size-4 rounded border-slate-400 text-brand-700 focus:ring-brand-600"
				/>
				<label htmlFor={id} className="text-sm text-slate-800">
					{label}
				</label>
			</div>
			<ErrorList id={errorId} errors={errors} />
		</div>
	)
}

/**
 * An on/off setting: a real checkbox (so it posts without JavaScript) shown as a switch, with
 * its label and a line saying what it does. The switch comes first, its label beside it, so that a
 * text browser shows "[X] Announcement emails" on one line; the row puts it at the end on screen.
 */
export function SwitchField({
	label,
	help,
	className,
	inputProps,
}: Omit<FieldShellProps, 'errors'> & { inputProps: InputHTMLAttributes<HTMLInputElement> }) {
	const { id, helpId } = useFieldIds(inputProps.id)
	return (
		<div className={cn('flex flex-row-reverse items-start justify-between gap-4', className)}>
			<span className="relative inline-flex shrink-0">
				<input
					type="checkbox"
					// biome-ignore lint/a11y/useAriaPropsForRole: a checkbox's own checked state is its aria-checked (ARIA in HTML says not to set it); a copy would go stale
					role="switch"
					{...inputProps}
					id={id}
					aria-describedby={help ? helpId : undefined}
					className="peer h-6 w-11 cursor-pointer appearance-none rounded-full bg-slate-400 transition-colors checked:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-50"
				/>
				<span
					aria-hidden="true"
					className="pointer-events-none absolute top-0.5 left-0.5 size-5 rounded-full bg-white shadow transition-transform peer-checked:translate-x-5"
				/>
			</span>{' '}
			<span className="min-w-0">
				<label htmlFor={id} className="block text-sm font-medium text-slate-800">
					{label}
				</label>{' '}
				{help ? (
					<span id={helpId} className="block text-sm text-slate-600">
						{help}
					</span>
				) : null}
			</span>
		</div>
	)
}
