import type { contractsV1 } from '@billing/proto';
import { z } from 'zod';
import type { ServiceClients } from '../../clients/service-clients.js';
import { defineListRoute, defineRoute, type Route } from '../../http/index.js';
import { catalogInput } from '../catalog/catalog-representation.js';
import { pageOf } from '../shared/page-of.js';
import { nullable, tagged } from '../shared/representation.js';
import {
  ContractBody,
  ContractPatchBody,
  ContractSchema,
  TierBody,
  TierPatchBody,
  TierSchema,
} from './contract-schemas.js';

const CONTRACTS = '/api/v1/accounts/{code}/contracts/';
const CONTRACT = `${CONTRACTS}{uuid}/`;
const TIERS = `${CONTRACT}tiers/`;
const TIER = `${TIERS}{id}/`;
const TAGS = ['contracts'];

const code = z.string().min(1).max(128);
const ContractsParams = z.object({ code });
const ContractParams = z.object({ code, uuid: z.uuid() });
const TierParams = z.object({ code, uuid: z.uuid(), id: z.uuid() });

export function presentTier(tier: contractsV1.ContractTier) {
  return tagged('contract_tier', {
    id: tier.id,
    minimum_quantity: tier.minimum_quantity,
    maximum_quantity: nullable(tier.maximum_quantity),
    discount: tier.discount,
    discount_type: tier.discount_type as 'percentage' | 'fixed',
  });
}

/** `account_code` is the code the request named (the service keeps only the account's uuid). */
export function presentContract(contract: contractsV1.Contract, accountCode: string) {
  return tagged('contract', {
    uuid: contract.uuid,
    account: contract.account,
    account_code: accountCode,
    plan_terms: contract.plan_terms,
    start_date: contract.start_date,
    end_date: nullable(contract.end_date),
    commitment_length: contract.commitment_length,
    exclusive_tiers: contract.exclusive_tiers,
    tiers: contract.tiers.map(presentTier),
  });
}

/**
 * gaps.md §5: contracts of an account and their tiers. The account code of the path is resolved
 * to the account's uuid by the accounts service first (404 for an unknown code or another
 * organization's account); the subscriptions service stores and is called with the uuid only.
 */
export function contractRoutes({ accounts, contracts }: ServiceClients): Route[] {
  const accountOf = async (accountCode: string) =>
    (await accounts.call('getAccount', { code: accountCode })).account!.uuid;

  const listContracts = defineListRoute({
    path: CONTRACTS,
    operationId: 'listContracts',
    summary: "The account's contracts, each with its tiers",
    tags: TAGS,
    params: ContractsParams,
    item: ContractSchema,
    ordering: ['start_date', 'end_date', 'created_date'],
    handler: async ({ params, page }) => {
      const account = await accountOf(params.code);
      const reply = await contracts.call('listContracts', { account, page: pageOf(page) });
      return { count: reply.count, results: reply.contracts.map((item) => presentContract(item, params.code)) };
    },
  });

  const createContract = defineRoute({
    method: 'post',
    path: CONTRACTS,
    operationId: 'createContract',
    summary: 'Create a contract for the account',
    tags: TAGS,
    params: ContractsParams,
    body: ContractBody,
    response: { status: 201, schema: ContractSchema },
    handler: async ({ params, body }) => {
      const account = await accountOf(params.code);
      const { input, present_fields } = catalogInput<contractsV1.ContractInput>(body);
      const reply = await contracts.call('createContract', { account, contract: input, present_fields });
      return presentContract(reply.contract!, params.code);
    },
  });

  const getContract = defineRoute({
    method: 'get',
    path: CONTRACT,
    operationId: 'getContract',
    summary: 'One contract with its tiers',
    tags: TAGS,
    params: ContractParams,
    response: { status: 200, schema: ContractSchema },
    handler: async ({ params }) => {
      const account = await accountOf(params.code);
      const reply = await contracts.call('getContract', { account, uuid: params.uuid });
      return presentContract(reply.contract!, params.code);
    },
  });

  const updateContract = (method: 'put' | 'patch') =>
    defineRoute({
      method,
      path: CONTRACT,
      operationId: method === 'put' ? 'replaceContract' : 'updateContract',
      summary:
        method === 'put' ? 'Update a contract (required fields as on create)' : 'Update some fields of a contract',
      tags: TAGS,
      params: ContractParams,
      body: method === 'put' ? ContractBody : ContractPatchBody,
      response: { status: 200, schema: ContractSchema },
      handler: async ({ params, body }) => {
        const account = await accountOf(params.code);
        const { input, present_fields } = catalogInput<contractsV1.ContractInput>(body);
        const reply = await contracts.call('updateContract', {
          account,
          uuid: params.uuid,
          contract: input,
          present_fields,
          replace: method === 'put',
        });
        return presentContract(reply.contract!, params.code);
      },
    });

  const deleteContract = defineRoute({
    method: 'delete',
    path: CONTRACT,
    operationId: 'deleteContract',
    summary: 'Delete a contract with its tiers',
    tags: TAGS,
    params: ContractParams,
    response: { status: 204 },
    handler: async ({ params }) => {
      const account = await accountOf(params.code);
      await contracts.call('deleteContract', { account, uuid: params.uuid });
      return undefined;
    },
  });

  const listTiers = defineListRoute({
    path: TIERS,
    operationId: 'listContractTiers',
    summary: "The contract's tiers",
    tags: TAGS,
    params: ContractParams,
    item: TierSchema,
    ordering: ['minimum_quantity', 'created_date'],
    handler: async ({ params, page }) => {
      const account = await accountOf(params.code);
      const reply = await contracts.call('listTiers', { account, contract: params.uuid, page: pageOf(page) });
      return { count: reply.count, results: reply.tiers.map(presentTier) };
    },
  });

  const createTier = defineRoute({
    method: 'post',
    path: TIERS,
    operationId: 'createContractTier',
    summary: 'Add a tier to the contract',
    tags: TAGS,
    params: ContractParams,
    body: TierBody,
    response: { status: 201, schema: TierSchema },
    handler: async ({ params, body }) => {
      const account = await accountOf(params.code);
      const { input, present_fields } = catalogInput<contractsV1.TierInput>(body);
      const reply = await contracts.call('createTier', { account, contract: params.uuid, tier: input, present_fields });
      return presentTier(reply.tier!);
    },
  });

  const getTier = defineRoute({
    method: 'get',
    path: TIER,
    operationId: 'getContractTier',
    summary: 'One tier of the contract',
    tags: TAGS,
    params: TierParams,
    response: { status: 200, schema: TierSchema },
    handler: async ({ params }) => {
      const account = await accountOf(params.code);
      return presentTier((await contracts.call('getTier', { account, contract: params.uuid, id: params.id })).tier!);
    },
  });

  const updateTier = (method: 'put' | 'patch') =>
    defineRoute({
      method,
      path: TIER,
      operationId: method === 'put' ? 'replaceContractTier' : 'updateContractTier',
      summary: method === 'put' ? 'Update a tier (required fields as on create)' : 'Update some fields of a tier',
      tags: TAGS,
      params: TierParams,
      body: method === 'put' ? TierBody : TierPatchBody,
      response: { status: 200, schema: TierSchema },
      handler: async ({ params, body }) => {
        const account = await accountOf(params.code);
        const { input, present_fields } = catalogInput<contractsV1.TierInput>(body);
        const reply = await contracts.call('updateTier', {
          account,
          contract: params.uuid,
          id: params.id,
          tier: input,
          present_fields,
          replace: method === 'put',
        });
        return presentTier(reply.tier!);
      },
    });

  const deleteTier = defineRoute({
    method: 'delete',
    path: TIER,
    operationId: 'deleteContractTier',
    summary: 'Remove a tier from the contract',
    tags: TAGS,
    params: TierParams,
    response: { status: 204 },
    handler: async ({ params }) => {
      const account = await accountOf(params.code);
      await contracts.call('deleteTier', { account, contract: params.uuid, id: params.id });
      return undefined;
    },
  });

  return [
    listContracts,
    createContract,
    getContract,
    updateContract('put'),
    updateContract('patch'),
    deleteContract,
    listTiers,
    createTier,
    getTier,
    updateTier('put'),
    updateTier('patch'),
    deleteTier,
  ];
}
