import { forwardRef, type InputHTMLAttributes, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react'
import { cn } from '#app/utils/misc.ts'

const control =
	'block w-full rounded-md border border-slate-300 bg-white px-3 text-base text-ink shadow-sm ' +
	'placeholder:text-slate-500 focus:border-brand-600 focus:ring-2 focus:ring-brand-200 focus:outline-none ' +
	'aria-[invalid=true]:border-red-600 disabled:bg-slate-100 disabled:text-slate-600'
/** Only text fields can be read-only; a select always matches :read-only, so it must not get this. */
const readOnlyText = 'read-only:bg-slate-100'

export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function Input({ className, ...props }, ref) {
	return <input ref={ref} className={cn(control, readOnlyText, 'h-10', className)} {...props} />
})

export const Textarea = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement>>(function Textarea(
	{ className, ...props },
	ref,
) {
	return <textarea ref={ref} className={cn(control, readOnlyText, 'min-h-24 py-2', className)} {...props} />
})

export const Select = forwardRef<HTMLSelectElement, SelectHTMLAttributes<HTMLSelectElement>>(function Select({ className, ...props }, ref) {
	return <select ref={ref} className={cn(control, 'h-10', className)} {...props} />
})

export function Label({ className, ...props }: React.LabelHTMLAttributes<HTMLLabelElement>) {
	// biome-ignore lint/a11y/noLabelWithoutControl: every caller passes htmlFor
	return <label className={cn('block text-sm font-medium text-slate-800', className)} {...props} />
}
