"""Contains all the data models used in inputs/outputs"""

from .asset_resource import AssetResource
from .asset_resource_kind import AssetResourceKind
from .cancel_render_response_200 import CancelRenderResponse200
from .cancel_render_response_200_error_type_0 import CancelRenderResponse200ErrorType0
from .cancel_render_response_200_error_type_0_code import CancelRenderResponse200ErrorType0Code
from .cancel_render_response_200_format import CancelRenderResponse200Format
from .cancel_render_response_200_status import CancelRenderResponse200Status
from .check_template_body import CheckTemplateBody
from .check_template_response_200 import CheckTemplateResponse200
from .check_template_response_200_errors_item import CheckTemplateResponse200ErrorsItem
from .check_template_response_200_errors_item_code import CheckTemplateResponse200ErrorsItemCode
from .check_template_response_200_variables import CheckTemplateResponse200Variables
from .check_template_response_200_variables_additional_property import (
    CheckTemplateResponse200VariablesAdditionalProperty,
)
from .check_template_response_200_variables_additional_property_type import (
    CheckTemplateResponse200VariablesAdditionalPropertyType,
)
from .check_template_response_200_warnings_item import CheckTemplateResponse200WarningsItem
from .create_key_body import CreateKeyBody
from .create_key_body_mode import CreateKeyBodyMode
from .create_key_response_201 import CreateKeyResponse201
from .create_key_response_201_mode import CreateKeyResponse201Mode
from .create_preview_body import CreatePreviewBody
from .create_preview_response_200 import CreatePreviewResponse200
from .create_preview_response_200_plan import CreatePreviewResponse200Plan
from .create_preview_response_200_words import CreatePreviewResponse200Words
from .create_preview_response_200_words_additional_property_item import (
    CreatePreviewResponse200WordsAdditionalPropertyItem,
)
from .create_preview_token_response_201 import CreatePreviewTokenResponse201
from .create_render_body import CreateRenderBody
from .create_render_response_200 import CreateRenderResponse200
from .create_render_response_200_error_type_0 import CreateRenderResponse200ErrorType0
from .create_render_response_200_error_type_0_code import CreateRenderResponse200ErrorType0Code
from .create_render_response_200_format import CreateRenderResponse200Format
from .create_render_response_200_status import CreateRenderResponse200Status
from .create_render_response_201 import CreateRenderResponse201
from .create_render_response_201_error_type_0 import CreateRenderResponse201ErrorType0
from .create_render_response_201_error_type_0_code import CreateRenderResponse201ErrorType0Code
from .create_render_response_201_format import CreateRenderResponse201Format
from .create_render_response_201_status import CreateRenderResponse201Status
from .create_script_body import CreateScriptBody
from .create_script_body_words_per_scene import CreateScriptBodyWordsPerScene
from .create_script_response_200 import CreateScriptResponse200
from .create_script_response_200_meta import CreateScriptResponse200Meta
from .create_script_response_200_meta_constraints import CreateScriptResponse200MetaConstraints
from .create_script_response_200_meta_constraints_scene_count import CreateScriptResponse200MetaConstraintsSceneCount
from .create_script_response_200_meta_constraints_words_per_scene_type_0 import (
    CreateScriptResponse200MetaConstraintsWordsPerSceneType0,
)
from .create_script_response_200_meta_usage import CreateScriptResponse200MetaUsage
from .create_script_response_200_scenes_item import CreateScriptResponse200ScenesItem
from .create_script_response_201 import CreateScriptResponse201
from .create_script_response_201_meta import CreateScriptResponse201Meta
from .create_script_response_201_meta_constraints import CreateScriptResponse201MetaConstraints
from .create_script_response_201_meta_constraints_scene_count import CreateScriptResponse201MetaConstraintsSceneCount
from .create_script_response_201_meta_constraints_words_per_scene_type_0 import (
    CreateScriptResponse201MetaConstraintsWordsPerSceneType0,
)
from .create_script_response_201_meta_usage import CreateScriptResponse201MetaUsage
from .create_script_response_201_scenes_item import CreateScriptResponse201ScenesItem
from .create_template_body import CreateTemplateBody
from .create_template_render_body import CreateTemplateRenderBody
from .create_template_render_response_200 import CreateTemplateRenderResponse200
from .create_template_render_response_200_error_type_0 import CreateTemplateRenderResponse200ErrorType0
from .create_template_render_response_200_error_type_0_code import CreateTemplateRenderResponse200ErrorType0Code
from .create_template_render_response_200_format import CreateTemplateRenderResponse200Format
from .create_template_render_response_200_status import CreateTemplateRenderResponse200Status
from .create_template_render_response_201 import CreateTemplateRenderResponse201
from .create_template_render_response_201_error_type_0 import CreateTemplateRenderResponse201ErrorType0
from .create_template_render_response_201_error_type_0_code import CreateTemplateRenderResponse201ErrorType0Code
from .create_template_render_response_201_format import CreateTemplateRenderResponse201Format
from .create_template_render_response_201_status import CreateTemplateRenderResponse201Status
from .create_template_response_201 import CreateTemplateResponse201
from .create_template_response_201_body import CreateTemplateResponse201Body
from .create_template_response_201_variables import CreateTemplateResponse201Variables
from .create_template_response_201_variables_additional_property import (
    CreateTemplateResponse201VariablesAdditionalProperty,
)
from .create_template_response_201_variables_additional_property_type import (
    CreateTemplateResponse201VariablesAdditionalPropertyType,
)
from .create_template_response_201_warnings_item import CreateTemplateResponse201WarningsItem
from .download_output_image_image import DownloadOutputImageImage
from .error_envelope import ErrorEnvelope
from .error_envelope_error import ErrorEnvelopeError
from .error_envelope_error_code import ErrorEnvelopeErrorCode
from .error_envelope_errors_item import ErrorEnvelopeErrorsItem
from .error_envelope_errors_item_code import ErrorEnvelopeErrorsItemCode
from .framewright_movie_document_v1 import FramewrightMovieDocumentV1
from .framewright_movie_document_v1_loudness_type_1 import FramewrightMovieDocumentV1LoudnessType1
from .framewright_movie_document_v1_output import FramewrightMovieDocumentV1Output
from .framewright_movie_document_v1_scenes_item import FramewrightMovieDocumentV1ScenesItem
from .framewright_movie_document_v1_scenes_item_elements_item_type_0 import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType0,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_0_animate import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType0Animate,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_0_animate_crop_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType0AnimateCropItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_0_animate_crop_item_value import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType0AnimateCropItemValue,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_0_animate_opacity_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType0AnimateOpacityItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_0_animate_rotation_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType0AnimateRotationItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_0_animate_scale_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType0AnimateScaleItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_0_animate_scale_x_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType0AnimateScaleXItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_0_animate_scale_y_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType0AnimateScaleYItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_0_animate_x_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType0AnimateXItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_0_animate_y_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType0AnimateYItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_0_animation import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType0Animation,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_0_animation_in import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType0AnimationIn,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_0_animation_out import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType0AnimationOut,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_0_auto_fit import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType0AutoFit,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_0_background import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType0Background,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_0_position_type_1 import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType0PositionType1,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_0_shadow import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType0Shadow,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_0_stroke import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType0Stroke,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_0_text_animation import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType0TextAnimation,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_1 import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType1,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_1_animate import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType1Animate,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_1_animate_crop_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateCropItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_1_animate_crop_item_value import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateCropItemValue,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_1_animate_opacity_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateOpacityItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_1_animate_rotation_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateRotationItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_1_animate_scale_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateScaleItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_1_animate_scale_x_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateScaleXItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_1_animate_scale_y_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateScaleYItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_1_animate_x_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateXItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_1_animate_y_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateYItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_1_animation import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType1Animation,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_1_animation_in import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimationIn,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_1_animation_out import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimationOut,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_1_background import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType1Background,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_1_border import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType1Border,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_1_chroma_key import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType1ChromaKey,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_1_filters import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType1Filters,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_1_position_type_1 import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType1PositionType1,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_2 import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType2,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_2_animate import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType2Animate,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_2_animate_crop_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType2AnimateCropItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_2_animate_crop_item_value import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType2AnimateCropItemValue,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_2_animate_opacity_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType2AnimateOpacityItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_2_animate_rotation_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType2AnimateRotationItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_2_animate_scale_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType2AnimateScaleItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_2_animate_scale_x_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType2AnimateScaleXItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_2_animate_scale_y_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType2AnimateScaleYItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_2_animate_volume_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType2AnimateVolumeItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_2_animate_x_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType2AnimateXItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_2_animate_y_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType2AnimateYItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_2_animation import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType2Animation,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_2_animation_in import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType2AnimationIn,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_2_animation_out import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType2AnimationOut,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_2_background import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType2Background,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_2_border import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType2Border,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_2_chroma_key import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType2ChromaKey,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_2_filters import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType2Filters,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_2_position_type_1 import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType2PositionType1,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_3 import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType3,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_4 import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType4,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_4_background import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType4Background,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_4_position_type_1 import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType4PositionType1,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_4_shadow import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType4Shadow,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_4_stroke import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType4Stroke,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_5 import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType5,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_5_animate import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType5Animate,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_5_animate_volume_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType5AnimateVolumeItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_6 import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType6,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_6_animate import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType6Animate,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_6_animate_crop_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType6AnimateCropItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_6_animate_crop_item_value import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType6AnimateCropItemValue,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_6_animate_opacity_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType6AnimateOpacityItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_6_animate_rotation_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType6AnimateRotationItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_6_animate_scale_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType6AnimateScaleItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_6_animate_scale_x_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType6AnimateScaleXItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_6_animate_scale_y_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType6AnimateScaleYItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_6_animate_x_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType6AnimateXItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_6_animate_y_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType6AnimateYItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_6_animation import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType6Animation,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_6_animation_in import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType6AnimationIn,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_6_animation_out import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType6AnimationOut,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_6_fill_type_1_type_0 import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type0,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_6_fill_type_1_type_0_stops_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type0StopsItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_6_fill_type_1_type_1 import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type1,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_6_fill_type_1_type_1_stops_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type1StopsItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_6_from import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType6From,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_6_points_item import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType6PointsItem,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_6_position_type_1 import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType6PositionType1,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_6_stroke import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType6Stroke,
)
from .framewright_movie_document_v1_scenes_item_elements_item_type_6_to import (
    FramewrightMovieDocumentV1ScenesItemElementsItemType6To,
)
from .framewright_movie_document_v1_scenes_item_transition import FramewrightMovieDocumentV1ScenesItemTransition
from .framewright_movie_document_v1_soundtrack import FramewrightMovieDocumentV1Soundtrack
from .framewright_movie_document_v1_variables import FramewrightMovieDocumentV1Variables
from .get_asset_response_200 import GetAssetResponse200
from .get_asset_response_200_kind import GetAssetResponse200Kind
from .get_key_response_200 import GetKeyResponse200
from .get_key_response_200_mode import GetKeyResponse200Mode
from .get_movie_schema_response_200 import GetMovieSchemaResponse200
from .get_render_response_200 import GetRenderResponse200
from .get_render_response_200_error_type_0 import GetRenderResponse200ErrorType0
from .get_render_response_200_error_type_0_code import GetRenderResponse200ErrorType0Code
from .get_render_response_200_format import GetRenderResponse200Format
from .get_render_response_200_status import GetRenderResponse200Status
from .get_script_response_200 import GetScriptResponse200
from .get_script_response_200_meta import GetScriptResponse200Meta
from .get_script_response_200_meta_constraints import GetScriptResponse200MetaConstraints
from .get_script_response_200_meta_constraints_scene_count import GetScriptResponse200MetaConstraintsSceneCount
from .get_script_response_200_meta_constraints_words_per_scene_type_0 import (
    GetScriptResponse200MetaConstraintsWordsPerSceneType0,
)
from .get_script_response_200_meta_usage import GetScriptResponse200MetaUsage
from .get_script_response_200_scenes_item import GetScriptResponse200ScenesItem
from .get_template_response_200 import GetTemplateResponse200
from .get_template_response_200_body import GetTemplateResponse200Body
from .get_template_response_200_variables import GetTemplateResponse200Variables
from .get_template_response_200_variables_additional_property import GetTemplateResponse200VariablesAdditionalProperty
from .get_template_response_200_variables_additional_property_type import (
    GetTemplateResponse200VariablesAdditionalPropertyType,
)
from .get_usage_response_200 import GetUsageResponse200
from .get_usage_response_200_concurrency import GetUsageResponse200Concurrency
from .get_usage_response_200_credits import GetUsageResponse200Credits
from .get_usage_response_200_mode import GetUsageResponse200Mode
from .get_usage_response_200_plan import GetUsageResponse200Plan
from .get_usage_response_200_rate_limit import GetUsageResponse200RateLimit
from .list_assets_response_200 import ListAssetsResponse200
from .list_keys_response_200 import ListKeysResponse200
from .list_keys_response_200_items_item import ListKeysResponse200ItemsItem
from .list_keys_response_200_items_item_mode import ListKeysResponse200ItemsItemMode
from .list_keys_status import ListKeysStatus
from .list_renders_response_200 import ListRendersResponse200
from .list_renders_response_200_items_item import ListRendersResponse200ItemsItem
from .list_renders_response_200_items_item_error_type_0 import ListRendersResponse200ItemsItemErrorType0
from .list_renders_response_200_items_item_error_type_0_code import ListRendersResponse200ItemsItemErrorType0Code
from .list_renders_response_200_items_item_format import ListRendersResponse200ItemsItemFormat
from .list_renders_response_200_items_item_status import ListRendersResponse200ItemsItemStatus
from .list_renders_status import ListRendersStatus
from .list_templates_response_200 import ListTemplatesResponse200
from .list_templates_response_200_items_item import ListTemplatesResponse200ItemsItem
from .list_templates_response_200_items_item_body import ListTemplatesResponse200ItemsItemBody
from .list_templates_response_200_items_item_variables import ListTemplatesResponse200ItemsItemVariables
from .list_templates_response_200_items_item_variables_additional_property import (
    ListTemplatesResponse200ItemsItemVariablesAdditionalProperty,
)
from .list_templates_response_200_items_item_variables_additional_property_type import (
    ListTemplatesResponse200ItemsItemVariablesAdditionalPropertyType,
)
from .list_voices_response_200 import ListVoicesResponse200
from .revoke_key_response_200 import RevokeKeyResponse200
from .revoke_key_response_200_mode import RevokeKeyResponse200Mode
from .roll_key_response_201 import RollKeyResponse201
from .roll_key_response_201_created import RollKeyResponse201Created
from .roll_key_response_201_created_mode import RollKeyResponse201CreatedMode
from .roll_key_response_201_revoked import RollKeyResponse201Revoked
from .roll_key_response_201_revoked_mode import RollKeyResponse201RevokedMode
from .script_to_movie_body import ScriptToMovieBody
from .script_to_movie_body_preset import ScriptToMovieBodyPreset
from .script_to_movie_body_voice_id import ScriptToMovieBodyVoiceId
from .update_template_body import UpdateTemplateBody
from .update_template_response_200 import UpdateTemplateResponse200
from .update_template_response_200_body import UpdateTemplateResponse200Body
from .update_template_response_200_variables import UpdateTemplateResponse200Variables
from .update_template_response_200_variables_additional_property import (
    UpdateTemplateResponse200VariablesAdditionalProperty,
)
from .update_template_response_200_variables_additional_property_type import (
    UpdateTemplateResponse200VariablesAdditionalPropertyType,
)
from .update_template_response_200_warnings_item import UpdateTemplateResponse200WarningsItem
from .upload_asset_response_201 import UploadAssetResponse201
from .upload_asset_response_201_kind import UploadAssetResponse201Kind
from .variable_values import VariableValues
from .voice import Voice
from .voice_engine_type_0 import VoiceEngineType0
from .voice_engine_type_1 import VoiceEngineType1

__all__ = (
    "AssetResource",
    "AssetResourceKind",
    "CancelRenderResponse200",
    "CancelRenderResponse200ErrorType0",
    "CancelRenderResponse200ErrorType0Code",
    "CancelRenderResponse200Format",
    "CancelRenderResponse200Status",
    "CheckTemplateBody",
    "CheckTemplateResponse200",
    "CheckTemplateResponse200ErrorsItem",
    "CheckTemplateResponse200ErrorsItemCode",
    "CheckTemplateResponse200Variables",
    "CheckTemplateResponse200VariablesAdditionalProperty",
    "CheckTemplateResponse200VariablesAdditionalPropertyType",
    "CheckTemplateResponse200WarningsItem",
    "CreateKeyBody",
    "CreateKeyBodyMode",
    "CreateKeyResponse201",
    "CreateKeyResponse201Mode",
    "CreatePreviewBody",
    "CreatePreviewResponse200",
    "CreatePreviewResponse200Plan",
    "CreatePreviewResponse200Words",
    "CreatePreviewResponse200WordsAdditionalPropertyItem",
    "CreatePreviewTokenResponse201",
    "CreateRenderBody",
    "CreateRenderResponse200",
    "CreateRenderResponse200ErrorType0",
    "CreateRenderResponse200ErrorType0Code",
    "CreateRenderResponse200Format",
    "CreateRenderResponse200Status",
    "CreateRenderResponse201",
    "CreateRenderResponse201ErrorType0",
    "CreateRenderResponse201ErrorType0Code",
    "CreateRenderResponse201Format",
    "CreateRenderResponse201Status",
    "CreateScriptBody",
    "CreateScriptBodyWordsPerScene",
    "CreateScriptResponse200",
    "CreateScriptResponse200Meta",
    "CreateScriptResponse200MetaConstraints",
    "CreateScriptResponse200MetaConstraintsSceneCount",
    "CreateScriptResponse200MetaConstraintsWordsPerSceneType0",
    "CreateScriptResponse200MetaUsage",
    "CreateScriptResponse200ScenesItem",
    "CreateScriptResponse201",
    "CreateScriptResponse201Meta",
    "CreateScriptResponse201MetaConstraints",
    "CreateScriptResponse201MetaConstraintsSceneCount",
    "CreateScriptResponse201MetaConstraintsWordsPerSceneType0",
    "CreateScriptResponse201MetaUsage",
    "CreateScriptResponse201ScenesItem",
    "CreateTemplateBody",
    "CreateTemplateRenderBody",
    "CreateTemplateRenderResponse200",
    "CreateTemplateRenderResponse200ErrorType0",
    "CreateTemplateRenderResponse200ErrorType0Code",
    "CreateTemplateRenderResponse200Format",
    "CreateTemplateRenderResponse200Status",
    "CreateTemplateRenderResponse201",
    "CreateTemplateRenderResponse201ErrorType0",
    "CreateTemplateRenderResponse201ErrorType0Code",
    "CreateTemplateRenderResponse201Format",
    "CreateTemplateRenderResponse201Status",
    "CreateTemplateResponse201",
    "CreateTemplateResponse201Body",
    "CreateTemplateResponse201Variables",
    "CreateTemplateResponse201VariablesAdditionalProperty",
    "CreateTemplateResponse201VariablesAdditionalPropertyType",
    "CreateTemplateResponse201WarningsItem",
    "DownloadOutputImageImage",
    "ErrorEnvelope",
    "ErrorEnvelopeError",
    "ErrorEnvelopeErrorCode",
    "ErrorEnvelopeErrorsItem",
    "ErrorEnvelopeErrorsItemCode",
    "FramewrightMovieDocumentV1",
    "FramewrightMovieDocumentV1LoudnessType1",
    "FramewrightMovieDocumentV1Output",
    "FramewrightMovieDocumentV1ScenesItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType0",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType0Animate",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType0AnimateCropItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType0AnimateCropItemValue",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType0AnimateOpacityItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType0AnimateRotationItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType0AnimateScaleItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType0AnimateScaleXItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType0AnimateScaleYItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType0AnimateXItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType0AnimateYItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType0Animation",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType0AnimationIn",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType0AnimationOut",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType0AutoFit",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType0Background",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType0PositionType1",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType0Shadow",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType0Stroke",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType0TextAnimation",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType1",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType1Animate",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateCropItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateCropItemValue",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateOpacityItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateRotationItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateScaleItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateScaleXItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateScaleYItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateXItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateYItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType1Animation",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimationIn",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimationOut",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType1Background",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType1Border",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType1ChromaKey",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType1Filters",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType1PositionType1",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType2",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType2Animate",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType2AnimateCropItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType2AnimateCropItemValue",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType2AnimateOpacityItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType2AnimateRotationItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType2AnimateScaleItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType2AnimateScaleXItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType2AnimateScaleYItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType2AnimateVolumeItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType2AnimateXItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType2AnimateYItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType2Animation",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType2AnimationIn",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType2AnimationOut",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType2Background",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType2Border",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType2ChromaKey",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType2Filters",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType2PositionType1",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType3",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType4",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType4Background",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType4PositionType1",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType4Shadow",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType4Stroke",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType5",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType5Animate",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType5AnimateVolumeItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType6",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType6Animate",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType6AnimateCropItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType6AnimateCropItemValue",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType6AnimateOpacityItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType6AnimateRotationItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType6AnimateScaleItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType6AnimateScaleXItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType6AnimateScaleYItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType6AnimateXItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType6AnimateYItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType6Animation",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType6AnimationIn",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType6AnimationOut",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type0",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type0StopsItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type1",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type1StopsItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType6From",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType6PointsItem",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType6PositionType1",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType6Stroke",
    "FramewrightMovieDocumentV1ScenesItemElementsItemType6To",
    "FramewrightMovieDocumentV1ScenesItemTransition",
    "FramewrightMovieDocumentV1Soundtrack",
    "FramewrightMovieDocumentV1Variables",
    "GetAssetResponse200",
    "GetAssetResponse200Kind",
    "GetKeyResponse200",
    "GetKeyResponse200Mode",
    "GetMovieSchemaResponse200",
    "GetRenderResponse200",
    "GetRenderResponse200ErrorType0",
    "GetRenderResponse200ErrorType0Code",
    "GetRenderResponse200Format",
    "GetRenderResponse200Status",
    "GetScriptResponse200",
    "GetScriptResponse200Meta",
    "GetScriptResponse200MetaConstraints",
    "GetScriptResponse200MetaConstraintsSceneCount",
    "GetScriptResponse200MetaConstraintsWordsPerSceneType0",
    "GetScriptResponse200MetaUsage",
    "GetScriptResponse200ScenesItem",
    "GetTemplateResponse200",
    "GetTemplateResponse200Body",
    "GetTemplateResponse200Variables",
    "GetTemplateResponse200VariablesAdditionalProperty",
    "GetTemplateResponse200VariablesAdditionalPropertyType",
    "GetUsageResponse200",
    "GetUsageResponse200Concurrency",
    "GetUsageResponse200Credits",
    "GetUsageResponse200Mode",
    "GetUsageResponse200Plan",
    "GetUsageResponse200RateLimit",
    "ListAssetsResponse200",
    "ListKeysResponse200",
    "ListKeysResponse200ItemsItem",
    "ListKeysResponse200ItemsItemMode",
    "ListKeysStatus",
    "ListRendersResponse200",
    "ListRendersResponse200ItemsItem",
    "ListRendersResponse200ItemsItemErrorType0",
    "ListRendersResponse200ItemsItemErrorType0Code",
    "ListRendersResponse200ItemsItemFormat",
    "ListRendersResponse200ItemsItemStatus",
    "ListRendersStatus",
    "ListTemplatesResponse200",
    "ListTemplatesResponse200ItemsItem",
    "ListTemplatesResponse200ItemsItemBody",
    "ListTemplatesResponse200ItemsItemVariables",
    "ListTemplatesResponse200ItemsItemVariablesAdditionalProperty",
    "ListTemplatesResponse200ItemsItemVariablesAdditionalPropertyType",
    "ListVoicesResponse200",
    "RevokeKeyResponse200",
    "RevokeKeyResponse200Mode",
    "RollKeyResponse201",
    "RollKeyResponse201Created",
    "RollKeyResponse201CreatedMode",
    "RollKeyResponse201Revoked",
    "RollKeyResponse201RevokedMode",
    "ScriptToMovieBody",
    "ScriptToMovieBodyPreset",
    "ScriptToMovieBodyVoiceId",
    "UpdateTemplateBody",
    "UpdateTemplateResponse200",
    "UpdateTemplateResponse200Body",
    "UpdateTemplateResponse200Variables",
    "UpdateTemplateResponse200VariablesAdditionalProperty",
    "UpdateTemplateResponse200VariablesAdditionalPropertyType",
    "UpdateTemplateResponse200WarningsItem",
    "UploadAssetResponse201",
    "UploadAssetResponse201Kind",
    "VariableValues",
    "Voice",
    "VoiceEngineType0",
    "VoiceEngineType1",
)
