package harness

import (
	tatproto "github.com/bluesky-social/indigo/api/atproto"
	tbsky "github.com/bluesky-social/indigo/api/bsky"
	oatproto "ours.test/indigo/api/atproto"
	obsky "ours.test/indigo/api/bsky"
	olexutil "ours.test/indigo/lex/util"

	tlexutil "github.com/bluesky-social/indigo/lex/util"
)

var indigoPairs = []pair{
	{"util.CborChecker", func() any { return new(tlexutil.CborChecker) }, func() any { return new(olexutil.CborChecker) }},
	{"util.LegacyBlob", func() any { return new(tlexutil.LegacyBlob) }, func() any { return new(olexutil.LegacyBlob) }},
	{"util.BlobSchema", func() any { return new(tlexutil.BlobSchema) }, func() any { return new(olexutil.BlobSchema) }},
	{"atproto.LexiconSchema", func() any { return new(tatproto.LexiconSchema) }, func() any { return new(oatproto.LexiconSchema) }},
	{"atproto.RepoStrongRef", func() any { return new(tatproto.RepoStrongRef) }, func() any { return new(oatproto.RepoStrongRef) }},
	{"atproto.SyncSubscribeRepos_Commit", func() any { return new(tatproto.SyncSubscribeRepos_Commit) }, func() any { return new(oatproto.SyncSubscribeRepos_Commit) }},
	{"atproto.SyncSubscribeRepos_Sync", func() any { return new(tatproto.SyncSubscribeRepos_Sync) }, func() any { return new(oatproto.SyncSubscribeRepos_Sync) }},
	{"atproto.SyncSubscribeRepos_Identity", func() any { return new(tatproto.SyncSubscribeRepos_Identity) }, func() any { return new(oatproto.SyncSubscribeRepos_Identity) }},
	{"atproto.SyncSubscribeRepos_Account", func() any { return new(tatproto.SyncSubscribeRepos_Account) }, func() any { return new(oatproto.SyncSubscribeRepos_Account) }},
	{"atproto.SyncSubscribeRepos_Info", func() any { return new(tatproto.SyncSubscribeRepos_Info) }, func() any { return new(oatproto.SyncSubscribeRepos_Info) }},
	{"atproto.SyncSubscribeRepos_RepoOp", func() any { return new(tatproto.SyncSubscribeRepos_RepoOp) }, func() any { return new(oatproto.SyncSubscribeRepos_RepoOp) }},
	{"atproto.LabelDefs_SelfLabels", func() any { return new(tatproto.LabelDefs_SelfLabels) }, func() any { return new(oatproto.LabelDefs_SelfLabels) }},
	{"atproto.LabelDefs_SelfLabel", func() any { return new(tatproto.LabelDefs_SelfLabel) }, func() any { return new(oatproto.LabelDefs_SelfLabel) }},
	{"atproto.LabelDefs_Label", func() any { return new(tatproto.LabelDefs_Label) }, func() any { return new(oatproto.LabelDefs_Label) }},
	{"atproto.LabelSubscribeLabels_Labels", func() any { return new(tatproto.LabelSubscribeLabels_Labels) }, func() any { return new(oatproto.LabelSubscribeLabels_Labels) }},
	{"atproto.LabelSubscribeLabels_Info", func() any { return new(tatproto.LabelSubscribeLabels_Info) }, func() any { return new(oatproto.LabelSubscribeLabels_Info) }},
	{"atproto.LabelDefs_LabelValueDefinition", func() any { return new(tatproto.LabelDefs_LabelValueDefinition) }, func() any { return new(oatproto.LabelDefs_LabelValueDefinition) }},
	{"atproto.LabelDefs_LabelValueDefinitionStrings", func() any { return new(tatproto.LabelDefs_LabelValueDefinitionStrings) }, func() any { return new(oatproto.LabelDefs_LabelValueDefinitionStrings) }},
	{"bsky.FeedPost", func() any { return new(tbsky.FeedPost) }, func() any { return new(obsky.FeedPost) }},
	{"bsky.FeedRepost", func() any { return new(tbsky.FeedRepost) }, func() any { return new(obsky.FeedRepost) }},
	{"bsky.FeedPost_Entity", func() any { return new(tbsky.FeedPost_Entity) }, func() any { return new(obsky.FeedPost_Entity) }},
	{"bsky.FeedPost_ReplyRef", func() any { return new(tbsky.FeedPost_ReplyRef) }, func() any { return new(obsky.FeedPost_ReplyRef) }},
	{"bsky.FeedPost_TextSlice", func() any { return new(tbsky.FeedPost_TextSlice) }, func() any { return new(obsky.FeedPost_TextSlice) }},
	{"bsky.EmbedImages", func() any { return new(tbsky.EmbedImages) }, func() any { return new(obsky.EmbedImages) }},
	{"bsky.EmbedExternal", func() any { return new(tbsky.EmbedExternal) }, func() any { return new(obsky.EmbedExternal) }},
	{"bsky.EmbedExternal_External", func() any { return new(tbsky.EmbedExternal_External) }, func() any { return new(obsky.EmbedExternal_External) }},
	{"bsky.EmbedImages_Image", func() any { return new(tbsky.EmbedImages_Image) }, func() any { return new(obsky.EmbedImages_Image) }},
	{"bsky.GraphFollow", func() any { return new(tbsky.GraphFollow) }, func() any { return new(obsky.GraphFollow) }},
	{"bsky.ActorProfile", func() any { return new(tbsky.ActorProfile) }, func() any { return new(obsky.ActorProfile) }},
	{"bsky.EmbedGallery", func() any { return new(tbsky.EmbedGallery) }, func() any { return new(obsky.EmbedGallery) }},
	{"bsky.EmbedGallery_Image", func() any { return new(tbsky.EmbedGallery_Image) }, func() any { return new(obsky.EmbedGallery_Image) }},
	{"bsky.EmbedRecord", func() any { return new(tbsky.EmbedRecord) }, func() any { return new(obsky.EmbedRecord) }},
	{"bsky.FeedLike", func() any { return new(tbsky.FeedLike) }, func() any { return new(obsky.FeedLike) }},
	{"bsky.RichtextFacet", func() any { return new(tbsky.RichtextFacet) }, func() any { return new(obsky.RichtextFacet) }},
	{"bsky.RichtextFacet_ByteSlice", func() any { return new(tbsky.RichtextFacet_ByteSlice) }, func() any { return new(obsky.RichtextFacet_ByteSlice) }},
	{"bsky.RichtextFacet_Link", func() any { return new(tbsky.RichtextFacet_Link) }, func() any { return new(obsky.RichtextFacet_Link) }},
	{"bsky.RichtextFacet_Mention", func() any { return new(tbsky.RichtextFacet_Mention) }, func() any { return new(obsky.RichtextFacet_Mention) }},
	{"bsky.RichtextFacet_Tag", func() any { return new(tbsky.RichtextFacet_Tag) }, func() any { return new(obsky.RichtextFacet_Tag) }},
	{"bsky.EmbedRecordWithMedia", func() any { return new(tbsky.EmbedRecordWithMedia) }, func() any { return new(obsky.EmbedRecordWithMedia) }},
	{"bsky.FeedDefs_NotFoundPost", func() any { return new(tbsky.FeedDefs_NotFoundPost) }, func() any { return new(obsky.FeedDefs_NotFoundPost) }},
	{"bsky.GraphBlock", func() any { return new(tbsky.GraphBlock) }, func() any { return new(obsky.GraphBlock) }},
	{"bsky.GraphList", func() any { return new(tbsky.GraphList) }, func() any { return new(obsky.GraphList) }},
	{"bsky.GraphListitem", func() any { return new(tbsky.GraphListitem) }, func() any { return new(obsky.GraphListitem) }},
	{"bsky.FeedGenerator", func() any { return new(tbsky.FeedGenerator) }, func() any { return new(obsky.FeedGenerator) }},
	{"bsky.GraphListblock", func() any { return new(tbsky.GraphListblock) }, func() any { return new(obsky.GraphListblock) }},
	{"bsky.EmbedDefs_AspectRatio", func() any { return new(tbsky.EmbedDefs_AspectRatio) }, func() any { return new(obsky.EmbedDefs_AspectRatio) }},
	{"bsky.FeedThreadgate", func() any { return new(tbsky.FeedThreadgate) }, func() any { return new(obsky.FeedThreadgate) }},
	{"bsky.FeedThreadgate_ListRule", func() any { return new(tbsky.FeedThreadgate_ListRule) }, func() any { return new(obsky.FeedThreadgate_ListRule) }},
	{"bsky.FeedThreadgate_MentionRule", func() any { return new(tbsky.FeedThreadgate_MentionRule) }, func() any { return new(obsky.FeedThreadgate_MentionRule) }},
	{"bsky.FeedThreadgate_FollowerRule", func() any { return new(tbsky.FeedThreadgate_FollowerRule) }, func() any { return new(obsky.FeedThreadgate_FollowerRule) }},
	{"bsky.FeedThreadgate_FollowingRule", func() any { return new(tbsky.FeedThreadgate_FollowingRule) }, func() any { return new(obsky.FeedThreadgate_FollowingRule) }},
	{"bsky.GraphStarterpack_FeedItem", func() any { return new(tbsky.GraphStarterpack_FeedItem) }, func() any { return new(obsky.GraphStarterpack_FeedItem) }},
	{"bsky.GraphStarterpack", func() any { return new(tbsky.GraphStarterpack) }, func() any { return new(obsky.GraphStarterpack) }},
	{"bsky.LabelerService", func() any { return new(tbsky.LabelerService) }, func() any { return new(obsky.LabelerService) }},
	{"bsky.LabelerDefs_LabelerPolicies", func() any { return new(tbsky.LabelerDefs_LabelerPolicies) }, func() any { return new(obsky.LabelerDefs_LabelerPolicies) }},
	{"bsky.EmbedVideo", func() any { return new(tbsky.EmbedVideo) }, func() any { return new(obsky.EmbedVideo) }},
	{"bsky.EmbedVideo_Caption", func() any { return new(tbsky.EmbedVideo_Caption) }, func() any { return new(obsky.EmbedVideo_Caption) }},
	{"bsky.FeedPostgate", func() any { return new(tbsky.FeedPostgate) }, func() any { return new(obsky.FeedPostgate) }},
	{"bsky.FeedPostgate_DisableRule", func() any { return new(tbsky.FeedPostgate_DisableRule) }, func() any { return new(obsky.FeedPostgate_DisableRule) }},
	{"bsky.GraphVerification", func() any { return new(tbsky.GraphVerification) }, func() any { return new(obsky.GraphVerification) }},
	{"bsky.ActorStatus", func() any { return new(tbsky.ActorStatus) }, func() any { return new(obsky.ActorStatus) }},
	{"bsky.NotificationDeclaration", func() any { return new(tbsky.NotificationDeclaration) }, func() any { return new(obsky.NotificationDeclaration) }},
}

func init() { pairs = append(pairs, indigoPairs...) }
