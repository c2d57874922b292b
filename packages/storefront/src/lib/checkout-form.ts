/** The checkout form's fields and the messages for what is missing or malformed (checked on submit). */
export const checkoutFields = [
  { name: 'name', label: 'Full name', autoComplete: 'name' },
  { name: 'email', label: 'Email', autoComplete: 'email', type: 'email' },
  { name: 'address', label: 'Street address', autoComplete: 'street-address' },
  { name: 'city', label: 'City', autoComplete: 'address-level2' },
  { name: 'postcode', label: 'Postcode', autoComplete: 'postal-code' },
] as const;

export type CheckoutField = (typeof checkoutFields)[number]['name'];
export type CheckoutValues = Record<CheckoutField, string>;

export function validateCheckout(values: CheckoutValues): Partial<Record<CheckoutField, string>> {
  const errors: Partial<Record<CheckoutField, string>> = {};
  for (const field of checkoutFields) {
    if (values[field.name].trim() === '') errors[field.name] = `Enter your ${field.label.toLowerCase()}.`;
  }
  if (!errors.email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(values.email.trim())) errors.email = 'Enter an email address like name@example.com.';
  if (!errors.postcode && !/^[A-Za-z0-9][A-Za-z0-9 -]{1,9}$/.test(values.postcode.trim())) errors.postcode = 'Enter a postcode of letters and digits.';
  return errors;
}
