import type { ReactNode } from 'react'
import { Form, useNavigation } from 'react-router'
import { RouteDialog } from '#app/components/ui/dialog.tsx'
import { CancelAndSubmit, DIALOG_BUTTONS_ROW } from '#app/components/ui/dialog-buttons.tsx'

/**
 * A `?confirm=` dialog: the question and a form that posts the given fields, to the page the
 * dialog closes to unless `action` names another. Cancel is a link back to the page without the confirmation.
 */
export function ConfirmDialog({
	title,
	description,
	closeTo,
	action = closeTo,
	fields,
	confirmLabel,
	busyLabel,
	children,
}: {
	title: string
	description: ReactNode
	closeTo: string
	action?: string
	fields: Record<string, string>
	confirmLabel: string
	busyLabel: string
	children?: ReactNode
}) {
	const navigation = useNavigation()
	const isBusy =
		navigation.state === 'submitting' && Object.entries(fields).every(([name, value]) => navigation.formData?.get(name) === value)
	return (
		<RouteDialog title={title} description={description} closeTo={closeTo} size="sm">
			{children}
			<Form method="post" action={action} preventScrollReset className={`mt-6 ${DIALOG_BUTTONS_ROW}`}>
				{Object.entries(fields).map(([name, value]) => (
					<input key={name} type="hidden" name={name} value={value} />
				))}
				<CancelAndSubmit cancelTo={closeTo} busy={isBusy} busyLabel={busyLabel} label={confirmLabel} variant="destructive" />
			</Form>
		</RouteDialog>
	)
}
