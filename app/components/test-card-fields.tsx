import { type FieldMetadata, getInputProps } from '@conform-to/react'
import { Field } from './ui/field.tsx'

/** The test checkout's card number, expiry and CVC (the rule is `TestCardSchema`), on the checkout page and the plan's update-card page. */
export function TestCardFields({
	fields,
}: {
	fields: { cardNumber: FieldMetadata<string>; expiry: FieldMetadata<string>; cvc: FieldMetadata<string> }
}) {
	return (
		<>
			<Field
				label="Card Number"
				errors={fields.cardNumber.errors}
				inputProps={{
					...getInputProps(fields.cardNumber, { type: 'text' }),
					inputMode: 'numeric',
					autoComplete: 'cc-number',
					placeholder: '4242 4242 4242 4242',
					maxLength: 23,
				}}
			/>
			<div className="grid grid-cols-2 gap-4">
				<Field
					label="Expiry (MM/YY)"
					errors={fields.expiry.errors}
					inputProps={{
						...getInputProps(fields.expiry, { type: 'text' }),
						inputMode: 'numeric',
						autoComplete: 'cc-exp',
						placeholder: 'MM/YY',
						maxLength: 5,
					}}
				/>
				<Field
					label="CVC"
					errors={fields.cvc.errors}
					inputProps={{ ...getInputProps(fields.cvc, { type: 'text' }), inputMode: 'numeric', autoComplete: 'cc-csc', maxLength: 4 }}
				/>
			</div>
		</>
	)
}
