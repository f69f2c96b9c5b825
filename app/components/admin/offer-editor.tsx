import { getFormProps, getInputProps, getTextareaProps, type SubmissionResult, useForm } from '@conform-to/react'
import { Form, Link, useNavigation } from 'react-router'
import { LimitedTimeOfferCard } from '#app/components/marketing/offer-card.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { DialogFormButtons } from '#app/components/ui/dialog-buttons.tsx'
import { Field, TextareaField } from '#app/components/ui/field.tsx'
import type { LimitedTimeOffer } from '#app/models/site/site-settings.ts'

/** The home route's action; `edit-offer=1` keeps the editor open when the reply carries errors. */
const OFFER_ACTION = '/?index&edit-offer=1'
const OFFER_EDIT_PATH = '/?edit-offer=1'

/**
 * The hero's offer column as an admin sees it: the editor, the card with its controls, or
 * the panel to add it back. The home page loads this module only for admins, so visitors
 * never download the form code.
 */
export default function OfferAdminArea({
	offer,
	offerToEdit,
	editing,
	lastResult,
}: {
	offer: LimitedTimeOffer | null
	/** The offer shown, or the last one before it was removed: the editor starts from it. */
	offerToEdit: LimitedTimeOffer | null
	editing: boolean
	lastResult: SubmissionResult<string[]> | undefined
}) {
	if (editing) return <LimitedTimeOfferEditor adding={!offer} startFrom={offerToEdit ?? offer} lastResult={lastResult} />
	if (!offer) return <AddOfferPanel />
	return (
		<div className="space-y-3">
			<LimitedTimeOfferCard offer={offer} />
			<OfferAdminControls />
		</div>
	)
}

const onDark =
	'inline-flex h-9 items-center justify-center rounded-md border border-brand-200 px-3 text-sm font-semibold text-white hover:bg-brand-800'

/** The offer card in edit mode (admins only): Save keeps the edited data, Cancel leaves edit mode. */
function LimitedTimeOfferEditor({
	adding,
	startFrom,
	lastResult,
}: {
	adding: boolean
	startFrom: LimitedTimeOffer | null
	lastResult: SubmissionResult<string[]> | undefined
}) {
	const navigation = useNavigation()
	const isSaving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'save-offer'
	const [form, fields] = useForm({
		id: 'limited-offer-editor',
		lastResult,
		defaultValue: startFrom ? { ...startFrom, items: startFrom.items.join('\n') } : undefined,
	})
	const itemErrors = Object.entries(fields.items.allErrors).flatMap(([, messages]) => messages)
	return (
		<section aria-labelledby="offer-editor-heading" className="rounded-2xl bg-white p-6 text-ink shadow-2xl sm:p-7">
			<h2 id="offer-editor-heading" className="text-xl font-bold">
				{adding ? 'Add Limited Time Offer' : 'Edit Limited Time Offer'}
			</h2>
			<Form method="post" action={OFFER_ACTION} preventScrollReset {...getFormProps(form)} className="mt-4 space-y-4">
				<input type="hidden" name="intent" value="save-offer" />
				{form.errors?.length ? <Alert tone="error">{form.errors[0]}</Alert> : null}
				<Field
					label="Title"
					errors={fields.title.errors}
					inputProps={{ ...getInputProps(fields.title, { type: 'text' }), maxLength: 120 }}
				/>
				<Field
					label="Discount"
					errors={fields.discount.errors}
					inputProps={{ ...getInputProps(fields.discount, { type: 'text' }), maxLength: 160 }}
				/>
				<TextareaField
					label="Items"
					help="One item per line (at most 10)."
					errors={itemErrors}
					textareaProps={{ ...getTextareaProps(fields.items), rows: 5 }}
				/>
				<Field
					label="Action label"
					errors={fields.action.errors}
					inputProps={{ ...getInputProps(fields.action, { type: 'text' }), maxLength: 60 }}
				/>
				<Field label="Note" errors={fields.note.errors} inputProps={{ ...getInputProps(fields.note, { type: 'text' }), maxLength: 300 }} />
				<DialogFormButtons cancelTo="/" busy={isSaving} busyLabel="Saving..." label="Save" />
			</Form>
		</section>
	)
}

/** Edit and Remove under the offer card, for admins. */
function OfferAdminControls() {
	return (
		<div className="flex justify-end gap-2">
			<Link to={OFFER_EDIT_PATH} preventScrollReset className={onDark}>
				Edit<span className="sr-only"> limited time offer</span>
			</Link>
			<Form method="post" action="/?index" preventScrollReset>
				<input type="hidden" name="intent" value="remove-offer" />
				<button type="submit" className={onDark}>
					Remove<span className="sr-only"> limited time offer</span>
				</button>
			</Form>
		</div>
	)
}

/** What an admin sees where the removed offer was. */
function AddOfferPanel() {
	return (
		<div className="rounded-2xl border-2 border-dashed border-brand-200 p-8 text-center">
			<p className="text-brand-50">The limited time offer is hidden from visitors.</p>
			<Link
				to={OFFER_EDIT_PATH}
				preventScrollReset
				className="mt-4 inline-flex h-11 items-center justify-center rounded-md border border-brand-200 px-5 text-base font-semibold text-white hover:bg-brand-800"
			>
				Add Limited Time Offer
			</Link>
		</div>
	)
}
