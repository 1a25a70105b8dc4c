import { pageSpec } from '@billing/domain-kit';
import { type GrpcService, unaryService } from '@billing/grpc';
import { contractsV1 } from '@billing/proto';
import { createTier, deleteTier, getTier, listTiers, updateTier } from '../use-cases/contract-tiers.js';
import { createContract, deleteContract, getContract, listContracts, updateContract } from '../use-cases/contracts.js';
import type { SubscriptionsDeps } from '../use-cases/deps.js';
import { contractMessage, contractWrite, tierMessage, tierWrite } from './contract-mapper.js';

/** Transport only: decode, call the use case, encode. */
export function contractService(deps: SubscriptionsDeps): GrpcService {
  return unaryService(contractsV1.ContractServiceService, {
    createContract: async (request, context) => {
      const write = contractWrite(request.contract, request.present_fields);
      return { contract: contractMessage(await createContract(deps, context, request.account, write)) };
    },
    getContract: async (request, context) => ({
      contract: contractMessage(await getContract(deps, context, request.account, request.uuid)),
    }),
    listContracts: async (request, context) => {
      const { count, contracts } = await listContracts(deps, context, request.account, pageSpec(request.page));
      return { count, contracts: contracts.map(contractMessage) };
    },
    updateContract: async (request, context) => {
      const write = contractWrite(request.contract, request.present_fields);
      const view = await updateContract(deps, context, request.account, request.uuid, write, request.replace);
      return { contract: contractMessage(view) };
    },
    deleteContract: async (request, context) => {
      await deleteContract(deps, context, request.account, request.uuid);
      return {};
    },
    createTier: async (request, context) => {
      const write = tierWrite(request.tier, request.present_fields);
      return { tier: tierMessage(await createTier(deps, context, request.account, request.contract, write)) };
    },
    getTier: async (request, context) => ({
      tier: tierMessage(await getTier(deps, context, request.account, request.contract, request.id)),
    }),
    listTiers: async (request, context) => {
      const page = pageSpec(request.page);
      const { count, tiers } = await listTiers(deps, context, request.account, request.contract, page);
      return { count, tiers: tiers.map(tierMessage) };
    },
    updateTier: async (request, context) => {
      const write = tierWrite(request.tier, request.present_fields);
      const ids = { account: request.account, contract: request.contract, id: request.id };
      return { tier: tierMessage(await updateTier(deps, context, ids, write, request.replace)) };
    },
    deleteTier: async (request, context) => {
      await deleteTier(deps, context, { account: request.account, contract: request.contract, id: request.id });
      return {};
    },
  });
}
