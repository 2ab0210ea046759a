import { describe, expect, it } from 'vitest';
import { UsageError } from './io';
import { parseOverrides } from './overrides';

describe('parseOverrides', () => {
  it('makes the body: strings, null, nested fields', () => {
    expect(parseOverrides(['first_name=Ada', 'company_name=null', 'address_data.city=London', 'address_data.zip=N1'], 'createCustomer')).toEqual({
      first_name: 'Ada',
      company_name: null,
      address_data: { city: 'London', zip: 'N1' },
    });
    expect(parseOverrides(['email=a=b@example.com'], 'updateCustomer')).toEqual({ email: 'a=b@example.com' });
    expect(parseOverrides([], 'updateCustomer')).toEqual({});
  });

  it('refuses a field the operation does not take, naming it and the operation', () => {
    expect(() => parseOverrides(['nickname=Ada'], 'createCustomer')).toThrow(
      new UsageError('--set nickname: createCustomer does not take the field nickname (it takes first_name, last_name, email, company_name, legal_entity, language, status, address_data, postal_redirect_address)'),
    );
    expect(() => parseOverrides(['id=1'], 'updateCustomer')).toThrow(/^--set id: updateCustomer does not take the field id/);
    expect(() => parseOverrides(['nickname.x=1'], 'updateCustomer')).toThrow(/field nickname/);
  });

  it('refuses a malformed, repeated or conflicting override', () => {
    expect(() => parseOverrides(['first_name'], 'createCustomer')).toThrow('--set first_name: expected FIELD=VALUE');
    expect(() => parseOverrides(['=Ada'], 'createCustomer')).toThrow('expected FIELD=VALUE');
    expect(() => parseOverrides(['first_name=A', 'first_name=B'], 'createCustomer')).toThrow('--set first_name: given twice');
    expect(() => parseOverrides(['address_data=null', 'address_data.city=X'], 'createCustomer')).toThrow('address_data is already set');
    expect(() => parseOverrides(['address_data.=X'], 'createCustomer')).toThrow('empty field name');
  });
});
