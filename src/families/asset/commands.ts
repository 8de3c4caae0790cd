/** `diazo acc asset list|get|create|update`: the assets of a construction-cloud project, as the logged-in user. */
import { type Asset, ASSET_KIND, type AssetFilters } from "./kind.ts";
import type { CommandDecl } from "../../command/decl.ts";
import { commaList, type RecordCli, recordCommands } from "../acc/record_commands.ts";

const P = "91f8bd44-058f-480c-adbb-861df5101b22";

const ASSET_CLI: RecordCli<Asset, AssetFilters> = {
  kind: ASSET_KIND,
  tools: { get: "asset_get", list: "asset_list" },
  plural: "assets",
  article: "an",
  filters: [
    { flags: "--category <ids>", key: "categoryId", help: "only these category ids", parse: commaList },
    { flags: "--status <ids>", key: "statusId", help: "only these status ids", parse: commaList },
    { flags: "--search <text>", key: "search", help: "only assets whose text fields hold this text" },
  ],
  fields: [
    { flags: "--name <text>", field: "clientAssetId", help: "the asset's name (Asset ID in the web app)" },
    { flags: "--category <id>", field: "categoryId", help: "category id" },
    { flags: "--status <id>", field: "statusId", help: "status id (one of the category's status set)" },
    { flags: "--description <text>", field: "description", help: "description" },
    { flags: "--barcode <text>", field: "barcode", help: "barcode" },
    { flags: "--location <id>", field: "locationId", help: "location id" },
  ],
  examples: {
    list: [
      `diazo acc asset list --project ${P}`,
      `diazo acc asset list --project b.${P} --category 3 -o json`,
    ],
    get: [`diazo acc asset get <asset-id> --project ${P}`],
    create: [`diazo acc asset create --project ${P} --name AHU-07 --category 3 --status <status-id>`],
    update: [`diazo acc asset update <asset-id> --project ${P} --status <status-id> --barcode 0042`],
  },
};

/** `acc asset`. */
export const ASSET: CommandDecl = {
  name: "asset",
  description: "assets of a project: equipment and their statuses",
  examples: [`diazo acc asset list --project ${P}`],
  commands: recordCommands(ASSET_CLI),
};
