import { type FieldMetadata, getInputProps } from '@conform-to/react'
import { useId } from 'react'
import { Button } from '#app/components/ui/button.tsx'
import { ErrorList } from '#app/components/ui/field.tsx'
import { Input, Label } from '#app/components/ui/input.tsx'
import { APPLY_CODE_INTENT, type PromotionCodePreview } from '#app/models/payments/promotion-codes.ts'
import { formatMoney, formatPrice } from '#app/utils/money.ts'

/**
 * The payment step's promotion code: a field and its own Apply button, inside the step's form.
 * Apply is the form's first submit button, so Enter in the field applies the code rather than
 * paying; paying with a code typed and not applied applies it too (the server checks either way).
 */
export function PromotionCodeField({
	field,
	preview,
	applying,
}: {
	field: FieldMetadata<string | undefined>
	preview: PromotionCodePreview | null
	applying: boolean
}) {
	const helpId = useId()
	const errorId = `${field.id}-error`
	const invalid = Boolean(field.errors?.length)
	return (
		<div className="space-y-2">
			<Label htmlFor={field.id}>Promotion code (optional)</Label>
			<div className="flex flex-col gap-2 sm:flex-row">
				<Input
					{...getInputProps(field, { type: 'text' })}
					autoComplete="off"
					autoCapitalize="characters"
					spellCheck={false}
					className="sm:max-w-xs"
					aria-invalid={invalid || undefined}
					aria-describedby={[invalid ? errorId : null, helpId].filter(Boolean).join(' ')}
				/>
				<Button type="submit" name="intent" value={APPLY_CODE_INTENT} variant="outline" disabled={applying}>
					{applying ? 'Applying...' : 'Apply'}
				</Button>
			</div>
			<p id={helpId} className="text-xs text-slate-600">
				Have a code? Apply it to see your price before you continue.
			</p>
			<ErrorList id={errorId} errors={field.errors} />
			{preview ? <PriceWithCode preview={preview} /> : null}
		</div>
	)
}

function PriceWithCode({ preview }: { preview: PromotionCodePreview }) {
	return (
		<div role="status" className="rounded-lg border border-emerald-300 bg-emerald-50 p-3 text-sm text-emerald-950">
			<p className="font-semibold">
				Code {preview.code} applied: {preview.description}
				{preview.plan || preview.planRefusal ? ' when paying in full' : ''}.
			</p>
			<dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
				<dt>Price</dt>
				<dd className="text-right">{formatPrice(preview.priceCents)}</dd>
				<dt>Discount</dt>
				<dd className="text-right">−{formatMoney(preview.discountCents)}</dd>
				<dt className="font-semibold">You pay</dt>
				<dd className="text-right font-semibold">{preview.totalCents === 0 ? '$0.00 (free)' : formatPrice(preview.totalCents)}</dd>
			</dl>
			{preview.plan?.discount ? (
				<p className="mt-2">
					On the payment plan: {formatMoney(preview.plan.discount.priceCents)} less {formatMoney(preview.plan.discount.discountCents)} is{' '}
					{formatMoney(preview.plan.totalCents)}, spread over its {preview.plan.payments.length} payments.
				</p>
			) : null}
			{preview.planRefusal ? <p className="mt-2">{preview.planRefusal}</p> : null}
		</div>
	)
}
