import { Button, ButtonLink, type ButtonVariant } from '#app/components/ui/button.tsx'

/** A dialog's row of buttons: stacked on phones with the main one on top, side by side at the right from `sm` on. */
export const DIALOG_BUTTONS_ROW = 'flex flex-col-reverse gap-2 sm:flex-row sm:justify-end'

export type CancelAndSubmitProps = {
	/** Where Cancel goes back to: the page behind the dialog. */
	cancelTo: string
	label: string
	/** What the submit button says while its form is being sent. */
	busyLabel: string
	busy: boolean
	variant?: ButtonVariant
}

/** A dialog form's Cancel (a link back, so it works without JavaScript) and its submit button, for a row of the caller's. */
export function CancelAndSubmit({ cancelTo, label, busyLabel, busy, variant }: CancelAndSubmitProps) {
	return (
		<>
			<ButtonLink to={cancelTo} preventScrollReset variant="outline">
				Cancel
			</ButtonLink>
			<Button type="submit" variant={variant} disabled={busy}>
				{busy ? busyLabel : label}
			</Button>
		</>
	)
}

/** Cancel and submit in the dialog's row of buttons, at the end of its form. */
export function DialogFormButtons(props: CancelAndSubmitProps) {
	return (
		<div className={DIALOG_BUTTONS_ROW}>
			<CancelAndSubmit {...props} />
		</div>
	)
}
